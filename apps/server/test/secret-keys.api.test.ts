import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { hashApiKey } from '../src/crypto/apikeys.js';
import { demoSecretKeyId } from '../src/secret-keys/keys.js';
import { seedDemoGrantor } from '../src/seed.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, demoKey } from './support/fixtures.js';
import { multipartBody } from './uploads/samples.js';

async function cli(t: TestApp, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runGrantorCommand(t, argv, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const secretFrom = (text: string) => /key: (sk_live_\S+)/.exec(text)?.[1] ?? '';
const idFrom = (text: string) => /id: +([0-9a-f-]{36})/.exec(text)?.[1] ?? '';

/**
 * Secret server keys: the grantor CLI's secret-* commands, the demo secret and the bearer authentication of
 * POST /v1/faces/compare. Every refusal here happens before the body is read, so no face is analysed.
 */
describe.each(engines)('secret server keys ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  const compare = (authorization?: string) => {
    const { payload, contentType } = multipartBody([{ name: 'reference', filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.from('not read') }]);
    return t.app.inject({
      method: 'POST',
      url: '/v1/faces/compare',
      headers: { 'content-type': contentType, ...(authorization !== undefined ? { authorization } : {}) },
      payload,
    });
  };

  it('secret-create prints a prefixed key once and stores only its hash; several keys stay active', async () => {
    const first = await cli(t, 'secret-create', demoId, '--label', 'backend 2026');
    expect(first.code, first.err).toBe(0);
    const key = secretFrom(first.out);
    expect(key).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    const second = secretFrom((await cli(t, 'secret-create', demoId)).out);
    expect(second).not.toBe(key);
    const rows = await t.db.selectFrom('grantor_secret_keys').selectAll().where('grantor_id', '=', demoId).execute();
    const row = rows.find((r) => r.id === idFrom(first.out))!;
    expect(row.key_hash).toBe(hashApiKey(key));
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(row).toMatchObject({ label: 'backend 2026', key_hint: key.slice(0, 12), revoked_at: null, last_used_at: null });
    const listed = await cli(t, 'secret-list', demoId);
    expect(listed.out).toContain(idFrom(first.out));
    expect(listed.out).toContain('backend 2026');
    expect(listed.out).not.toContain(key);
  });

  it('secret-create and secret-revoke refuse a missing or unknown target', async () => {
    expect((await cli(t, 'secret-create')).code).toBe(2);
    expect((await cli(t, 'secret-create', randomUUID())).code).toBe(1);
    expect((await cli(t, 'secret-revoke')).code).toBe(2);
    expect((await cli(t, 'secret-revoke', randomUUID())).code).toBe(1);
    expect((await cli(t, 'secret-create', demoId, '--label', 'x'.repeat(101))).code).toBe(2);
  });

  it('no Authorization header, or one that is not a bearer credential: 401 with a JSON error', async () => {
    for (const authorization of [undefined, '', 'Basic ZGVtbzpkZW1v', 'Bearer', 'Bearer two words', `Bearer ${'a'.repeat(300)}`]) {
      const res = await compare(authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toEqual({ status: 401, message: expect.stringMatching(/^(Missing|Malformed) Authorization header/) });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer /);
    }
  });

  it('the publishable api key as a bearer: 401 saying a secret key is needed', async () => {
    const res = await compare(`Bearer ${demoKey}`);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toMatch(/publishable api key: this call needs a secret server key/);
  });

  it('an unknown key and a revoked key: 401; the other keys of the grantor keep working', async () => {
    expect((await compare('Bearer sk_live_unknown')).json()).toEqual({ status: 401, message: 'Unknown secret server key' });
    const created = await cli(t, 'secret-create', demoId, '--label', 'old');
    const old = secretFrom(created.out);
    const fresh = secretFrom((await cli(t, 'secret-create', demoId, '--label', 'new')).out);
    // Past authentication, a body without the probe file is a 400: the key was accepted.
    expect((await compare(`Bearer ${old}`)).statusCode).toBe(400);
    const revoked = await cli(t, 'secret-revoke', idFrom(created.out));
    expect(revoked.code).toBe(0);
    expect(revoked.out).toContain('is revoked');
    expect((await cli(t, 'secret-revoke', idFrom(created.out))).out).toContain('already revoked');
    expect((await compare(`Bearer ${old}`)).json()).toEqual({ status: 401, message: 'This secret server key was revoked' });
    expect((await compare(`Bearer ${fresh}`)).statusCode).toBe(400);
    const row = await t.db.selectFrom('grantor_secret_keys').selectAll().where('id', '=', idFrom(created.out)).executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
    expect(row.last_used_at).not.toBeNull();
    expect((await cli(t, 'secret-list')).out).toMatch(new RegExp(`${idFrom(created.out)}.*revoked`));
  });

  it("an inactive grantor's keys are refused", async () => {
    const grantorId = randomUUID();
    await cli(t, 'create', '--name', 'Crédito Inactivo', '--id', grantorId);
    const key = secretFrom((await cli(t, 'secret-create', grantorId)).out);
    expect((await compare(`Bearer ${key}`)).statusCode).toBe(400);
    await cli(t, 'deactivate', grantorId);
    expect((await compare(`Bearer ${key}`)).json()).toEqual({ status: 401, message: 'The grantor of this secret server key is inactive' });
  });

  it('the demo secret works with DEMO_GRANTOR on, is revoked with DEMO_GRANTOR=false, and comes back with it on', async () => {
    expect((await compare('Bearer demo-secret')).statusCode).toBe(400);
    expect(await seedDemoGrantor(t, false)).toBe('deactivated');
    const row = await t.db.selectFrom('grantor_secret_keys').selectAll().where('id', '=', demoSecretKeyId).executeTakeFirstOrThrow();
    expect(row.revoked_at).not.toBeNull();
    expect(row.key_hash).toBe(hashApiKey('demo-secret'));
    expect((await compare('Bearer demo-secret')).statusCode).toBe(401);
    expect(await seedDemoGrantor(t, true)).toBe('kept');
    expect((await compare('Bearer demo-secret')).statusCode).toBe(400);
  });
});

describe.each(engines)('demo secret with DEMO_GRANTOR=false ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine, { DEMO_GRANTOR: 'false' });
  });
  afterAll(async () => t?.close());

  it('is refused even when an operator turns the demo grantor back on', async () => {
    // A database that never had the demo: nothing is seeded.
    expect(await t.db.selectFrom('grantor_secret_keys').selectAll().execute()).toEqual([]);
    await seedDemoGrantor(t, true);
    const { payload, contentType } = multipartBody([{ name: 'reference', filename: 'a.jpg', contentType: 'image/jpeg', data: Buffer.from('x') }]);
    const res = await t.app.inject({ method: 'POST', url: '/v1/faces/compare', headers: { 'content-type': contentType, authorization: 'Bearer demo-secret' }, payload });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('This secret server key was revoked');
  });
});
