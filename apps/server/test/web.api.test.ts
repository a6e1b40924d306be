import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleContentSecurityPolicy, contentSecurityPolicy } from '../src/http/security-headers.js';
import { engines, startTestApp, type TestApp } from './support/app.js';

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const indexHtml = '<!doctype html><html lang="es-MX"><head><script type="module" src="/assets/app-3f2a.js"></script></head><body><div id="root"></div></body></html>';

describe.each(engines)('web app and SPA fallback ($name)', (engine) => {
  let t: TestApp;
  const webDist = mkdtempSync(path.join(tmpdir(), 'kyc-web-dist-'));
  beforeAll(async () => {
    mkdirSync(path.join(webDist, 'assets'));
    writeFileSync(path.join(webDist, 'index.html'), indexHtml);
    writeFileSync(path.join(webDist, 'assets', 'app-3f2a.js'), 'console.log("app");');
    writeFileSync(path.join(webDist, 'launcher.js'), 'export {};');
    t = await startTestApp(engine, { WEB_DIST: webDist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
  });

  it('serves index.html at / with the CSP and no-cache', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(indexHtml);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  it('answers client-side routes such as /{apikey} and /terminos with index.html', async () => {
    for (const url of ['/demo', '/terminos', '/cancelar_flujo/identificacion?referer=x']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(indexHtml);
      expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('caches hashed assets for good and revalidates other files', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-3f2a.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toBeUndefined();
    const launcher = await t.app.inject({ method: 'GET', url: '/launcher.js' });
    expect(launcher.headers['cache-control']).toBe('no-cache');
  });

  it('answers 404 JSON to a missing asset and to non-page requests', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/assets/missing.js', headers: { accept: '*/*' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ status: 404, message: 'Not found' });
    const post = await t.app.inject({ method: 'POST', url: '/terminos', headers: html });
    expect(post.statusCode).toBe(404);
  });

  it('serves the page to a terminal client that states no preference (curl, wget)', async () => {
    for (const headers of [{ accept: '*/*' }, {}, { accept: '*/*;q=0.8' }]) {
      const res = await t.app.inject({ method: 'GET', url: '/demo', headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(res.body).toBe(indexHtml);
    }
    const json = await t.app.inject({ method: 'GET', url: '/demo', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({ status: 404, message: 'Not found' });
    const favicon = await t.app.inject({ method: 'GET', url: '/favicon.ico', headers: {} });
    expect(favicon.statusCode).toBe(404);
  });

  it('never answers a service path with index.html', async () => {
    for (const url of ['/v1/unknown', '/v2/unknown', '/record/connections/x']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ status: 404 });
    }
  });
});

describe.each(engines)('web app not built ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { WEB_DIST: path.join(tmpdir(), 'kyc-no-such-web-dist') });
  });
  afterAll(async () => t?.close());

  it('answers / and page routes with 503 and the build hint', async () => {
    for (const url of ['/', '/demo']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(503);
      expect(res.json()).toEqual({ status: 503, message: 'the web app is not built: run npm run build' });
    }
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});

describe.each(engines)('the review console under /console ($name)', (engine) => {
  let t: TestApp;
  const webDist = mkdtempSync(path.join(tmpdir(), 'kyc-web-dist-'));
  const consoleDist = mkdtempSync(path.join(tmpdir(), 'kyc-console-dist-'));
  const consoleHtml = '<!doctype html><html lang="es-MX"><head><script type="module" src="/console/assets/c-1.js"></script></head><body></body></html>';
  beforeAll(async () => {
    writeFileSync(path.join(webDist, 'index.html'), indexHtml);
    mkdirSync(path.join(consoleDist, 'assets'));
    writeFileSync(path.join(consoleDist, 'index.html'), consoleHtml);
    writeFileSync(path.join(consoleDist, 'assets', 'c-1.js'), 'console.log("console");');
    t = await startTestApp(engine, { WEB_DIST: webDist, CONSOLE_DIST: consoleDist });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(webDist, { recursive: true, force: true });
    rmSync(consoleDist, { recursive: true, force: true });
  });

  it("serves the console's own page with its stricter CSP at /console and its client routes, never the flow's", async () => {
    for (const url of ['/console', '/console/', '/console/casos']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(consoleHtml);
      expect(res.headers['content-security-policy']).toBe(consoleContentSecurityPolicy);
      expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    }
    const asset = await t.app.inject({ method: 'GET', url: '/console/assets/c-1.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // The flow is unchanged beside it.
    expect((await t.app.inject({ method: 'GET', url: '/demo', headers: html })).body).toBe(indexHtml);
    // The console's API answers JSON, never a page.
    const api = await t.app.inject({ method: 'GET', url: '/console/api/nothing', headers: html });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/json/);
  });
});
