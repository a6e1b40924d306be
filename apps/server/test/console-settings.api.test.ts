import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { otherActiveAdmins } from '../src/features/console/staff.js';
import { timeStep, totpAt } from '../src/features/console/totp.js';
import { readPolicy } from '../src/features/retention/policy.js';
import { activeEndpointIds } from '../src/features/webhooks/store.js';
import { findSecretKey, insertSecretKey } from '../src/secret-keys/store.js';
import { insertGrantor } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId } from './support/fixtures.js';

const otherKey = 'other-grantor-key-settings-0123456789';
const otherId = '00000000-0000-4000-8000-0000000000d7';

interface Session {
  cookie: string;
  csrf: string;
}

/** Issue #16: the console's settings (admin only): parameters, secret keys, webhook endpoints, users and retention. */
describe.each(engines)('console settings ($name)', (engine) => {
  let t: TestApp;
  const cipher = () => createDataCipher(loadDataKey(t.config).key);
  const s: Record<string, Session> = {};
  const cookieOf = (res: { cookies: { name: string; value: string }[] }) => `kyc_console=${res.cookies.find((c) => c.name === 'kyc_console')?.value ?? ''}`;

  async function signIn(email: string, password: string, totpUri: string | undefined | null): Promise<Session> {
    const first = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password } });
    expect(first.statusCode, first.body).toBe(200);
    if (first.json().stage === 'active') return { cookie: cookieOf(first), csrf: first.json().csrfToken };
    const code = totpAt(new URL(totpUri!).searchParams.get('secret')!, timeStep(new Date()));
    const second = await t.app.inject({ method: 'POST', url: '/console/api/session/totp', payload: { code }, headers: { cookie: cookieOf(first), 'x-csrf-token': first.json().csrfToken } });
    expect(second.statusCode, second.body).toBe(200);
    return { cookie: cookieOf(second), csrf: second.json().csrfToken };
  }

  async function cliUser(grantor: string, email: string, role: string): Promise<Session> {
    const out: string[] = [];
    const code = await runGrantorCommand(t, ['console-user-create', '--grantor', grantor, '--email', email, '--role', role], { out: (l) => out.push(l), err: () => {} }, undefined, cipher);
    expect(code).toBe(0);
    const text = out.join('\n');
    return signIn(email, /password: (\S+)/.exec(text)![1]!, /totp: +(otpauth:\/\/\S+)/.exec(text)?.[1]);
  }

  const call = (who: string, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: object, csrf = true) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie: s[who]!.cookie, ...(csrf && method !== 'GET' ? { 'x-csrf-token': s[who]!.csrf } : {}) } });
  const actions = async (action: string) => t.db.selectFrom('console_audit').select(['detail', 'user_id', 'grantor_id']).where('action', '=', action).execute();

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off' });
    await insertGrantor(t, { id: otherId, name: 'Otra Financiera', apiKey: otherKey });
    s.admin = await cliUser(demoId, 'admin@settings.example', 'admin');
    s.reviewer = await cliUser(demoId, 'reviewer@settings.example', 'reviewer');
    s.viewer = await cliUser(demoId, 'viewer@settings.example', 'viewer');
    s.otherAdmin = await cliUser(otherId, 'admin@other-settings.example', 'admin');
  });
  afterAll(async () => t?.close());

  const reads = ['/console/api/settings/params', '/console/api/settings/keys', '/console/api/settings/users', '/console/api/settings/retention'];

  it('refuses viewers and reviewers every settings screen and change (403), and audits each refusal', async () => {
    for (const who of ['viewer', 'reviewer']) {
      for (const url of reads) expect((await call(who, 'GET', url)).statusCode, `${who} ${url}`).toBe(403);
      expect((await call(who, 'POST', '/console/api/settings/keys', { label: 'x' })).statusCode).toBe(403);
      expect((await call(who, 'PUT', '/console/api/settings/retention', { biometricDays: 30, fileYears: 5 })).statusCode).toBe(403);
      expect((await call(who, 'POST', '/console/api/webhooks', { url: 'https://hooks.example/x', events: ['review.decided'] })).statusCode).toBe(403);
    }
    expect((await actions('settings_refused')).length + (await actions('webhook_refused')).length).toBeGreaterThanOrEqual(14);
    expect((await call('admin', 'GET', '/console/api/settings/params')).statusCode).toBe(200);
  });

  it('refuses a change without the CSRF token, and changes nothing', async () => {
    const before = (await call('admin', 'GET', '/console/api/settings/keys')).json().keys.length;
    expect((await call('admin', 'POST', '/console/api/settings/keys', { label: 'sin token' }, false)).statusCode).toBe(403);
    expect((await call('admin', 'PUT', '/console/api/settings/params', { values: { COLOR_PRIMARIO: '#123456' } }, false)).statusCode).toBe(403);
    expect((await call('admin', 'GET', '/console/api/settings/keys')).json().keys.length).toBe(before);
  });

  it('parameters: invalid values answer 400 with each field named; valid ones are stored, served to the flow and audited; empty goes back to the default', async () => {
    const bad = await call('admin', 'PUT', '/console/api/settings/params', {
      values: { COLOR_PRIMARIO: 'azul', INTENTOS_ID_FRONTAL: '0', LOGO_OTORGANTE: 'https://evil.example/logo.png', APIKEY: 'x' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['APIKEY', 'COLOR_PRIMARIO', 'INTENTOS_ID_FRONTAL', 'LOGO_OTORGANTE']);
    expect(bad.json().fields.COLOR_PRIMARIO).toBe('Debe ser un color como #0B4F8A.');

    const ok = await call('admin', 'PUT', '/console/api/settings/params', { values: { COLOR_PRIMARIO: '#AA0044', TITULO_TERMINOS: 'Aviso de privacidad de Demo' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().params.find((p: { id: string }) => p.id === 'COLOR_PRIMARIO')).toMatchObject({ value: '#AA0044', stored: true, defaultValue: '#0B4F8A' });
    expect(ok.json().params.some((p: { id: string }) => p.id === 'APIKEY' || p.id === 'ID_OTORGANTE')).toBe(false);
    const flow = await t.app.inject({ method: 'GET', url: `/v1/public/params/${demoId}` });
    expect(flow.statusCode).toBe(200);
    expect(flow.json().payload).toContainEqual({ idCampo: 'COLOR_PRIMARIO', valor: '#AA0044' });
    const audited = await actions('params_updated');
    expect(JSON.parse(audited.at(-1)!.detail)).toEqual({ changed: ['COLOR_PRIMARIO', 'TITULO_TERMINOS'], cleared: [] });
    expect(audited.at(-1)!.detail).not.toContain('Aviso de privacidad de Demo');

    const reset = await call('admin', 'PUT', '/console/api/settings/params', { values: { COLOR_PRIMARIO: '' } });
    expect(reset.json().params.find((p: { id: string }) => p.id === 'COLOR_PRIMARIO')).toMatchObject({ value: '#0B4F8A', stored: false });
  });

  it('secret keys: created with the secret shown once, listed by hint only, rotated and revoked; another grantor’s key is not found', async () => {
    const created = await call('admin', 'POST', '/console/api/settings/keys', { label: 'Servidor de originación' });
    expect(created.statusCode, created.body).toBe(200);
    const { key, secret } = created.json();
    expect(secret).toMatch(/^sk_live_[A-Za-z0-9_-]{43}$/);
    expect((await findSecretKey(t.db, secret))?.key.id).toBe(key.id);
    const list = await call('admin', 'GET', '/console/api/settings/keys');
    expect(list.body).not.toContain(secret);
    expect(list.json().keys.find((k: { id: string }) => k.id === key.id)).toMatchObject({ hint: secret.slice(0, 12), label: 'Servidor de originación', revokedAt: null });

    const rotated = await call('admin', 'POST', `/console/api/settings/keys/${key.id}/rotate`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    expect(rotated.json().revoked).toBe(key.id);
    expect((await findSecretKey(t.db, secret))?.key.revokedAt).not.toBeNull();
    expect((await findSecretKey(t.db, rotated.json().secret))?.key.revokedAt).toBeNull();
    expect((await call('admin', 'POST', `/console/api/settings/keys/${key.id}/rotate`)).statusCode).toBe(409);

    const revoked = await call('admin', 'POST', `/console/api/settings/keys/${rotated.json().key.id}/revoke`);
    expect(revoked.statusCode).toBe(200);
    expect((await findSecretKey(t.db, rotated.json().secret))?.key.revokedAt).not.toBeNull();

    const othersKey = await insertSecretKey(t.db, { grantorId: otherId, key: 'sk_live_other-grantor-key-for-settings-test-000000', label: 'otro' });
    expect((await call('admin', 'POST', `/console/api/settings/keys/${othersKey}/revoke`)).statusCode).toBe(404);
    expect((await call('admin', 'POST', `/console/api/settings/keys/${othersKey}/rotate`)).statusCode).toBe(404);
    expect((await actions('secret_key_created')).length).toBe(1);
    expect((await actions('secret_key_rotated')).length).toBe(1);
    expect((await actions('secret_key_revoked')).length).toBe(1);
    expect(JSON.stringify(await t.db.selectFrom('console_audit').selectAll().execute())).not.toContain(secret);
  });

  it('webhook endpoints: the URL is validated, the chosen events are the ones delivered, the secret is shown once; removal stops it; another grantor’s is not found', async () => {
    const bad = await call('admin', 'POST', '/console/api/webhooks', { url: 'http://hooks.example/x', events: ['review.decided'] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['url']);
    expect((await call('admin', 'POST', '/console/api/webhooks', { url: 'https://hooks.example/x', events: [] })).json().fields).toHaveProperty('events');

    const added = await call('admin', 'POST', '/console/api/webhooks', { url: 'https://hooks.example/decisions', events: ['review.decided'] });
    expect(added.statusCode, added.body).toBe(200);
    const { endpoint, secret } = added.json();
    expect(secret).toMatch(/^whsec_/);
    expect(endpoint).toMatchObject({ url: 'https://hooks.example/decisions', events: ['review.decided'], active: true });
    expect(await activeEndpointIds(t.db, demoId, 'review.decided')).toContain(endpoint.id);
    expect(await activeEndpointIds(t.db, demoId, 'verification.completed')).not.toContain(endpoint.id);
    expect((await call('admin', 'GET', '/console/api/webhooks')).body).not.toContain(secret);

    const othersAdded = await call('otherAdmin', 'POST', '/console/api/webhooks', { url: 'https://other.example/hooks', events: ['verification.completed'] });
    expect((await call('admin', 'DELETE', `/console/api/webhooks/${othersAdded.json().endpoint.id}`)).statusCode).toBe(404);
    const removed = await call('admin', 'DELETE', `/console/api/webhooks/${endpoint.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().endpoints.find((e: { id: string }) => e.id === endpoint.id).active).toBe(false);
    expect(await activeEndpointIds(t.db, demoId, 'review.decided')).not.toContain(endpoint.id);
    expect((await call('admin', 'DELETE', `/console/api/webhooks/${endpoint.id}`, undefined, false)).statusCode).toBe(403);
    expect((await actions('webhook_endpoint_added')).length).toBe(2);
    expect((await actions('webhook_endpoint_removed')).length).toBe(1);
  });

  it('users: created with a password (and TOTP for an admin) shown once, role changed, disabled, TOTP reset; never oneself; never another grantor’s', async () => {
    const bad = await call('admin', 'POST', '/console/api/settings/users', { email: 'no es correo', role: 'reviewer' });
    expect(bad.json().fields).toHaveProperty('email');
    expect((await call('admin', 'POST', '/console/api/settings/users', { email: 'viewer@settings.example', role: 'viewer' })).json().fields).toHaveProperty('email');
    expect((await call('admin', 'POST', '/console/api/settings/users', { email: 'op@settings.example', role: 'operator' })).statusCode).toBe(400);

    const created = await call('admin', 'POST', '/console/api/settings/users', { email: 'Nueva@Settings.example', role: 'reviewer' });
    expect(created.statusCode, created.body).toBe(200);
    const { user, password, totpUri } = created.json();
    expect(user).toMatchObject({ email: 'nueva@settings.example', role: 'reviewer', active: true, totp: false });
    expect(totpUri).toBeNull();
    s.nueva = await signIn('nueva@settings.example', password, null);
    expect((await call('nueva', 'GET', '/console/api/cases')).statusCode).toBe(200);
    expect((await call('admin', 'GET', '/console/api/settings/users')).body).not.toContain(password);

    const newAdmin = await call('admin', 'POST', '/console/api/settings/users', { email: 'admin2@settings.example', role: 'admin' });
    expect(newAdmin.json().totpUri).toMatch(/^otpauth:\/\/totp\//);

    expect((await call('admin', 'PATCH', `/console/api/settings/users/${user.id}`, { role: 'admin' })).statusCode).toBe(409);
    expect((await call('admin', 'PATCH', `/console/api/settings/users/${user.id}`, {})).statusCode).toBe(400);
    const viewer = await call('admin', 'PATCH', `/console/api/settings/users/${user.id}`, { role: 'viewer' });
    expect(viewer.json().users.find((u: { id: string }) => u.id === user.id).role).toBe('viewer');
    // The role change ended the user's sessions.
    expect((await call('nueva', 'GET', '/console/api/cases')).statusCode).toBe(401);
    await call('admin', 'PATCH', `/console/api/settings/users/${user.id}`, { active: false });
    expect((await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email: 'nueva@settings.example', password } })).statusCode).toBe(401);

    const reset = await call('admin', 'POST', `/console/api/settings/users/${user.id}/totp-reset`);
    expect(reset.json().totpUri).toMatch(/^otpauth:\/\//);
    expect(reset.json().user.totp).toBe(true);

    const me = (await call('admin', 'GET', '/console/api/settings/users')).json().users.find((u: { email: string }) => u.email === 'admin@settings.example');
    expect((await call('admin', 'PATCH', `/console/api/settings/users/${me.id}`, { active: false })).statusCode).toBe(409);
    expect((await call('admin', 'PATCH', `/console/api/settings/users/${me.id}`, { role: 'viewer' })).statusCode).toBe(409);
    const otherAdminId = (await call('otherAdmin', 'GET', '/console/api/settings/users')).json().users[0].id;
    expect((await call('admin', 'PATCH', `/console/api/settings/users/${otherAdminId}`, { active: false })).statusCode).toBe(404);
    expect((await call('admin', 'POST', `/console/api/settings/users/${otherAdminId}/totp-reset`)).statusCode).toBe(404);
    expect((await actions('user_created')).length).toBe(2);
    expect((await actions('user_updated')).length).toBe(2);
    expect((await actions('user_totp_reset')).length).toBe(1);
  });

  it('the last active admin stays: the guard counts the other active admins of the grantor only', async () => {
    // Through the API the acting admin is always another active admin (no one changes themselves), so the guard is
    // checked here on its own: the other grantor's only admin has no other, the demo grantor's first admin has one.
    const othersOnly = (await call('otherAdmin', 'GET', '/console/api/settings/users')).json().users[0];
    expect(await otherActiveAdmins(t.db, otherId, othersOnly.id)).toBe(0);
    const demoAdmins = (await call('admin', 'GET', '/console/api/settings/users')).json().users.filter((u: { role: string; active: boolean }) => u.role === 'admin' && u.active);
    expect(await otherActiveAdmins(t.db, demoId, demoAdmins[0].id)).toBe(demoAdmins.length - 1);
  });

  it('retention: out-of-range values answer 400 per field; a valid policy is what the sweep reads, and the change is audited', async () => {
    const before = (await call('admin', 'GET', '/console/api/settings/retention')).json();
    expect(before).toMatchObject({ biometricDays: 90, fileYears: 10, stored: false });
    const bad = await call('admin', 'PUT', '/console/api/settings/retention', { biometricDays: 0, fileYears: 31 });
    expect(Object.keys(bad.json().fields).sort()).toEqual(['biometricDays', 'fileYears']);
    const longer = await call('admin', 'PUT', '/console/api/settings/retention', { biometricDays: 800, fileYears: 2 });
    expect(longer.json().fields.biometricDays).toMatch(/más tiempo que el expediente/);
    const ok = await call('admin', 'PUT', '/console/api/settings/retention', { biometricDays: 30, fileYears: 5 });
    expect(ok.json()).toMatchObject({ biometricDays: 30, fileYears: 5, stored: true });
    expect(await readPolicy(t.db, demoId)).toMatchObject({ biometricDays: 30, fileYears: 5 });
    expect(await readPolicy(t.db, otherId)).toMatchObject({ stored: false });
    expect(JSON.parse((await actions('retention_updated')).at(-1)!.detail)).toEqual({ before: { biometricDays: 90, fileYears: 10 }, after: { biometricDays: 30, fileYears: 5 } });
  });
});
