import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loggableUrl, loggerOptions, prettyLogStream } from '../src/logger.js';

describe('logger', () => {
  function capture() {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    return { log: pino(loggerOptions({ logLevel: 'info' }), stream), lines };
  }

  it('redacts api keys and personal data wherever they appear', () => {
    const { log, lines } = capture();
    log.info(
      {
        headers: { apikey: 'secret-key', authorization: 'Bearer x', transaccion: 'trx-1' },
        body: { nombreCompleto: 'María Núñez', curp: 'NUZM800101MDFXXX01', phone: { number: '5512345678' } },
        correoElectronico: 'maria@correo.example',
        uuidTrx: 'trx-1',
      },
      'event',
    );
    const line = lines.join('');
    for (const secret of ['secret-key', 'Bearer', 'María', 'NUZM', '5512345678', 'maria@']) expect(line).not.toContain(secret);
    expect(line).toContain('trx-1');
  });

  it('logs service paths without query and hides page paths (they may carry the api key)', () => {
    expect(loggableUrl('/v1/params?idOtorgante=x')).toBe('/v1/params');
    expect(loggableUrl('/healthz')).toBe('/healthz');
    expect(loggableUrl('/assets/app-1.js')).toBe('/assets/app-1.js');
    expect(loggableUrl('/0Zk3s9-secret-key')).toBe('[page]');
    expect(loggableUrl('/terminos?jwt=abc')).toBe('[page]');
  });

  it('on a terminal writes one readable line per entry, its fields inline and personal data still redacted', () => {
    const lines: string[] = [];
    const out = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino(loggerOptions({ logLevel: 'info' }), prettyLogStream(out, false));
    log.info({ req: { method: 'POST', url: '/v2/ocr' }, res: { statusCode: 200 }, responseTime: 812, curp: 'NUZM800101MDFXXX01' }, 'request completed');
    const text = lines.join('');
    expect(text.trimEnd().split('\n')).toHaveLength(1);
    expect(text).toMatch(/^\[\d{2}:\d{2}:\d{2}\] INFO: request completed .*"url":"\/v2\/ocr".*"statusCode":200.*"responseTime":812/);
    expect(text).not.toContain('NUZM');
    expect(text).not.toMatch(/^\{"level"/);
  });
});
