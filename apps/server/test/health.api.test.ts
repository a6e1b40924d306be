import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyOcrEngine, type OcrEngineProvider } from '../src/engines/ocr/provider.js';
import { engines, startTestApp, type TestApp } from './support/app.js';

describe.each(engines)('health and readiness ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  it('GET /healthz answers 200 ok', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('GET /readyz answers 200 when the database and the blob store answer, migrations ran and no engine failed to start', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ready', checks: { database: true, migrations: true, blobs: true, ocrEngine: true, faceEngine: true } });
  });

  it('sets nosniff and no-referrer on every response', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('GET /readyz answers 503 once the database is gone, /healthz still 200', async () => {
    await t.db.destroy();
    const res = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ status: 'not_ready', checks: { database: false } });
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

/** A port on this machine where nothing listens. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('readiness of the blob store and the engines', () => {
  it('is not ready while the blob folder is broken, and ready again once it is back', async () => {
    const t = await startTestApp({ name: 'sqlite' });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      const dir = t.config.blobs.kind === 'filesystem' ? t.config.blobs.dir : '';
      rmSync(dir, { recursive: true, force: true });
      writeFileSync(dir, 'not a folder');
      const broken = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(broken.statusCode).toBe(503);
      expect(broken.json()).toMatchObject({ status: 'not_ready', checks: { database: true, blobs: false } });
      rmSync(dir);
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('is not ready while the S3 bucket cannot be reached', async () => {
    const port = await closedPort();
    const t = await startTestApp(
      { name: 'sqlite' },
      {
        S3_BUCKET: 'kyc-evidence',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'test',
        S3_SECRET_ACCESS_KEY: 'test-secret',
        S3_FORCE_PATH_STYLE: 'true',
      },
    );
    try {
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ checks: { database: true, blobs: false } });
    } finally {
      await t.close();
    }
  });

  it('is not ready once an engine failed to start, and says which', async () => {
    let ocr: OcrEngineProvider | undefined;
    // The OCR engine of this app cannot start, as when its language data is missing.
    const t = await startTestApp({ name: 'sqlite' }, {}, { wrapOcr: () => (ocr = lazyOcrEngine(async () => Promise.reject(new Error('language data missing')))) });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/readyz' })).json().checks).toMatchObject({ ocrEngine: true, faceEngine: true });
      await expect(ocr!.get()).rejects.toThrow('language data missing');
      const res = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks).toMatchObject({ ocrEngine: false, faceEngine: true, blobs: true });
    } finally {
      await t.close();
    }
  });
});
