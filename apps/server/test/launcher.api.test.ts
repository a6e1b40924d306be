import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorTexts } from '@kyc/contracts';
import { generateApiKey } from '../src/crypto/apikeys.js';
import { insertGrantor, writeParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, demoKey } from './support/fixtures.js';

const partner = 'http://localhost:9000';
const secret = randomBytes(32);

async function identity(t: TestApp, apikey: string, origin = partner, body: Record<string, unknown> = {}) {
  return t.app.inject({ method: 'POST', url: '/v1/launcher/identity', headers: { apikey, origin }, payload: body });
}

async function auth(t: TestApp, uuid: string, key: string, origin = partner) {
  return t.app.inject({ method: 'POST', url: '/v1/launcher/auth', headers: { origin }, payload: { user: { uuid, key } } });
}

async function credentials(t: TestApp, key = demoKey, origin = partner) {
  const uuid = identity(t, key, origin).then((r) => (r.json() as { payload: { uuid: string } }).payload.uuid);
  const user = await uuid;
  const token = ((await auth(t, user, key, origin)).json() as { payload: { token: string } }).payload.token;
  return { uuid: user, token };
}

function verify(t: TestApp, token: string, cliente: string, referer = `${partner}/tienda`, apikey = demoKey) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/launcher/verify',
    headers: { apikey, transaccion: randomUUID(), cliente },
    payload: { token, referer },
  });
}

describe.each(engines)('launcher calls ($name)', (engine) => {
  let t: TestApp;
  const otherKey = generateApiKey();
  const otherId = randomUUID();

  beforeAll(async () => {
    t = await startTestApp(engine, { LAUNCHER_JWT_SECRET: secret.toString('base64'), LAUNCHER_TOKEN_TTL_SECONDS: '120' });
    await insertGrantor(t, { id: otherId, name: 'Otra', apiKey: otherKey, launcherAnyOrigin: true });
  });
  afterAll(async () => t?.close());

  it('identity issues a user id for a valid key, keeps a given one, and answers CORS', async () => {
    const res = await identity(t, demoKey);
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(partner);
    const { uuid } = (res.json() as { payload: { uuid: string } }).payload;
    expect(uuid).toMatch(/^[0-9a-f-]{36}$/);
    const stored = await t.db.selectFrom('launcher_identities').selectAll().where('uuid_user', '=', uuid).executeTakeFirst();
    expect(stored?.grantor_id).toBe(demoId);

    const own = randomUUID();
    expect(((await identity(t, demoKey, partner, { uuid: own })).json() as { payload: { uuid: string } }).payload.uuid).toBe(own);

    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/v1/launcher/identity',
      headers: { origin: partner, 'access-control-request-method': 'POST', 'access-control-request-headers': 'apikey, content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(partner);
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('apikey');
  });

  it('identity refuses a wrong key (401), a missing key (400) and a missing Origin (400)', async () => {
    expect((await identity(t, 'no-such-key')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/v1/launcher/identity', headers: { origin: partner }, payload: {} })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/v1/launcher/identity', headers: { apikey: demoKey }, payload: {} })).statusCode).toBe(400);
    expect((await identity(t, demoKey, partner, { uuid: 'not-a-uuid' })).statusCode).toBe(400);
  });

  it('auth signs a short-lived JWT for a user the identity call issued', async () => {
    const { uuid } = (await identity(t, demoKey)).json().payload as { uuid: string };
    const res = await auth(t, uuid, demoKey);
    expect(res.statusCode).toBe(200);
    const token = (res.json() as { payload: { token: string } }).payload.token;
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect(claims).toMatchObject({ sub: uuid, oto: demoId, origin: partner, aud: 'kyc-flow', iss: 'kyc-onboarding' });
    expect((claims.exp as number) - (claims.iat as number)).toBe(120);
  });

  it('auth refuses an unknown user, a wrong key, a user of another grantor', async () => {
    expect((await auth(t, randomUUID(), demoKey)).statusCode).toBe(401);
    const { uuid } = (await identity(t, demoKey)).json().payload as { uuid: string };
    expect((await auth(t, uuid, 'wrong-key')).statusCode).toBe(401);
    expect((await auth(t, uuid, otherKey)).statusCode).toBe(401);
  });

  it('a grantor created now has its launcher closed until ORIGENES_LAUNCHER names its pages; the demo grantor stays open', async () => {
    const key = generateApiKey();
    const id = randomUUID();
    await insertGrantor(t, { id, name: 'Financiera Nueva', apiKey: key });
    const closed = await identity(t, key, 'https://tienda.example');
    expect(closed.statusCode).toBe(403);
    expect(JSON.stringify(closed.json())).toContain('ORIGENES_LAUNCHER');
    await writeParams(t, id, { ORIGENES_LAUNCHER: 'https://tienda.example' });
    expect((await identity(t, key, 'https://tienda.example')).statusCode).toBe(200);
    expect((await identity(t, demoKey, 'https://any-partner.example')).statusCode).toBe(200);
  });

  it('ORIGENES_LAUNCHER limits the partner origins', async () => {
    await writeParams(t, otherId, { ORIGENES_LAUNCHER: 'https://tienda.example, http://localhost:9000' });
    expect((await identity(t, otherKey, 'https://tienda.example')).statusCode).toBe(200);
    expect((await identity(t, otherKey, 'https://evil.example')).statusCode).toBe(403);
  });

  it('verify accepts the token for its grantor, user and referer origin', async () => {
    const { uuid, token } = await credentials(t);
    const res = await verify(t, token, uuid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 200, payload: { uuid, origin: partner } });
  });

  it('verify refuses a forged, expired, foreign or misdirected token with the bad-URL text', async () => {
    const { uuid, token } = await credentials(t);
    const refused = async (response: Promise<{ statusCode: number; json: () => unknown }>) => {
      const res = await response;
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message_client: errorTexts.badUrl });
    };
    // Signed with another key, with the right claims.
    const forged = await new SignJWT({ oto: demoId, origin: partner })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('kyc-onboarding')
      .setAudience('kyc-flow')
      .setSubject(uuid)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(new Uint8Array(randomBytes(32)));
    await refused(verify(t, forged, uuid));
    // A payload changed after signing.
    const [head, , sig] = token.split('.');
    const tampered = Buffer.from(JSON.stringify({ sub: uuid, oto: demoId, origin: 'https://evil.example', aud: 'kyc-flow', iss: 'kyc-onboarding', iat: 1, exp: 9999999999 })).toString('base64url');
    await refused(verify(t, `${head}.${tampered}.${sig}`, uuid));
    // alg none.
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: uuid, oto: demoId, origin: partner })).toString('base64url')}.`;
    await refused(verify(t, none, uuid));
    // Expired: signed with the server's key, an hour ago.
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ oto: demoId, origin: partner })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('kyc-onboarding')
      .setAudience('kyc-flow')
      .setSubject(uuid)
      .setIssuedAt(now - 3600)
      .setExpirationTime(now - 3000)
      .sign(new Uint8Array(secret));
    await refused(verify(t, expired, uuid));
    // Right token, other user, other referer origin, other grantor's key.
    await refused(verify(t, token, randomUUID()));
    await refused(verify(t, token, uuid, 'https://evil.example/tienda'));
    await refused(verify(t, token, uuid, `${partner}/tienda`, otherKey));
  });
});

describe('the served launcher', () => {
  it('is served at a stable path with caching headers, and 503 when not built', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'kyc-launcher-dist-'));
    writeFileSync(path.join(dir, 'launcher.js'), 'window.KycLauncher={create(){}};');
    const t = await startTestApp(engines[0]!, { LAUNCHER_DIST: dir });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/launcher/v1/launcher.js' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/javascript');
      expect(res.headers['cache-control']).toContain('max-age=3600');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.body).toContain('KycLauncher');
      const again = await t.app.inject({ method: 'GET', url: '/launcher/v1/launcher.js', headers: { 'if-none-match': String(res.headers.etag) } });
      expect(again.statusCode).toBe(304);
      expect((await t.app.inject({ method: 'GET', url: '/launcher/v1/other.js' })).statusCode).toBe(404);
      // launcher.mjs is not in this folder: the server says the launcher is not built.
      expect((await t.app.inject({ method: 'GET', url: '/launcher/v1/launcher.mjs' })).statusCode).toBe(503);
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
