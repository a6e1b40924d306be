import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionsPolicy } from '../src/http/security-headers.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { trxHeaders } from './support/fixtures.js';

const html = { accept: 'text/html' };

describe('security headers (issue #15 item 5)', () => {
  const engine = engines[0]!;
  let t: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { TRUST_PROXY: 'true' });
    off = await startTestApp(engine, { TRUST_PROXY: 'true', HSTS_MAX_AGE: '0' });
  });
  afterAll(async () => {
    await t?.close();
    await off?.close();
  });

  it('camera and microphone for this origin only, on pages and API answers alike', async () => {
    for (const url of ['/demo', '/v1/params']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { ...html, ...trxHeaders() } });
      expect(res.headers['permissions-policy']).toBe(permissionsPolicy);
      expect(permissionsPolicy).toContain('camera=(self)');
      expect(permissionsPolicy).toContain('microphone=(self)');
    }
  });

  it('HSTS only on requests that came over HTTPS, and none when HSTS_MAX_AGE=0', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    const tls = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
    const disabled = await off.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    expect(disabled.headers['strict-transport-security']).toBeUndefined();
  });

  it('Cross-Origin-Opener-Policy on the API and the console, not on the flow that a partner page opens as a popup', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders() })).headers['cross-origin-opener-policy']).toBe('same-origin');
    expect((await t.app.inject({ method: 'GET', url: '/console/', headers: html })).headers['cross-origin-opener-policy']).toBe('same-origin');
    for (const url of ['/demo', '/terminos', '/pdf_token/abc']) {
      expect((await t.app.inject({ method: 'GET', url, headers: html })).headers['cross-origin-opener-policy']).toBeUndefined();
    }
  });
});
