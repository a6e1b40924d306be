import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, startTestApp, type TestApp } from './support/app.js';

describe.each(engines)('OpenAPI document ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  it('is served at /openapi.json and lists the registered paths from the contracts', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/healthz',
        '/readyz',
        '/v1/params',
        '/v1/public/params/{idOtorgante}',
        '/v1/public/link_status',
        '/v1/update_cycle',
        '/v1/celd_events',
        '/v1/transactions/{uuidTrx}/events',
        '/v1/postalcodes',
        '/v2/ocr',
        '/v1/file',
        '/v1/launcher/identity',
        '/v1/launcher/auth',
        '/v1/launcher/verify',
        '/v1/token_sms_ac',
        '/v1/verify_token_sms/verify',
        '/v1/query_score/{uuidUser}/{uuidTrx}',
        '/v1/proccessdocuments',
        '/v1/enlace/{token}',
        '/v1/async_zip_nom_151_correo',
        '/v1/nom_151',
        '/v1/renapo',
        '/v1/ine',
        '/v1/id_calibrate',
        '/v1/otp',
        '/v1/videotoken/code',
        '/v2/videotoken',
        '/v1/public_otp',
        '/v1/public_video_token',
        '/record/connections',
        '/record/connections/{id}/remote-description',
        '/record/connections/{id}',
        '/v1/faces/compare',
      ].sort(),
    );
    const headerNames = doc.paths['/v1/params']?.get?.parameters?.filter((p) => p.in === 'header').map((p) => p.name);
    expect(headerNames).toEqual(expect.arrayContaining(['transaccion', 'cliente']));
    // The api key is declared once, as the publishable-key security scheme, not as a plain header parameter.
    expect((doc.paths['/v1/params']!.get as { security?: unknown }).security).toEqual([{ publishableKey: [] }]);
    expect(doc.paths['/v1/update_cycle']?.post).toHaveProperty('requestBody');
  });
});
