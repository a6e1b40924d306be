import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { timeStep, totpAt } from '../src/features/console/totp.js';
import { insertGrantor, readStoredParams } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId } from './support/fixtures.js';

const otherId = '00000000-0000-4000-8000-0000000000e7';
const missingId = '00000000-0000-4000-8000-0000000000e8';

interface Session {
  cookie: string;
  csrf: string;
  userId: string;
}

/**
 * Issue #16: the platform operator's screens. An operator lists every grantor and opens the funnel, the case list,
 * the settings and the webhooks of the grantor named by `grantorId`, each call audited under that grantor; a grantor's
 * own staff never reach another grantor, whatever they put in the query.
 */
describe.each(engines)('console platform operator ($name)', (engine) => {
  let t: TestApp;
  const cipher = () => createDataCipher(loadDataKey(t.config).key);
  const s: Record<string, Session> = {};
  const cookieOf = (res: { cookies: { name: string; value: string }[] }) => `kyc_console=${res.cookies.find((c) => c.name === 'kyc_console')?.value ?? ''}`;

  async function user(email: string, ...argv: string[]): Promise<Session> {
    const out: string[] = [];
    expect(await runGrantorCommand(t, ['console-user-create', '--email', email, ...argv], { out: (l) => out.push(l), err: () => {} }, undefined, cipher)).toBe(0);
    const text = out.join('\n');
    const first = await t.app.inject({ method: 'POST', url: '/console/api/session', payload: { email, password: /password: (\S+)/.exec(text)![1]! } });
    const row = await t.db.selectFrom('console_users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    if (first.json().stage === 'active') return { cookie: cookieOf(first), csrf: first.json().csrfToken, userId: row.id };
    const uri = /totp: +(otpauth:\/\/\S+)/.exec(text)![1]!;
    const code = totpAt(new URL(uri).searchParams.get('secret')!, timeStep(new Date()));
    const second = await t.app.inject({ method: 'POST', url: '/console/api/session/totp', payload: { code }, headers: { cookie: cookieOf(first), 'x-csrf-token': first.json().csrfToken } });
    expect(second.statusCode, second.body).toBe(200);
    return { cookie: cookieOf(second), csrf: second.json().csrfToken, userId: row.id };
  }

  const call = (who: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { cookie: s[who]!.cookie, ...(method !== 'GET' ? { 'x-csrf-token': s[who]!.csrf } : {}) } });
  const audits = (userId: string) => t.db.selectFrom('console_audit').select(['action', 'grantor_id']).where('user_id', '=', userId).orderBy('id').execute();

  beforeAll(async () => {
    t = await startTestApp(engine, { RATE_LIMITS: 'off' });
    await insertGrantor(t, { id: otherId, name: 'Otra Financiera', apiKey: 'otra-financiera-operator-0123456789' });
    s.operator = await user('ops@platform.example', '--role', 'operator');
    s.admin = await user('admin@demo-ops.example', '--grantor', demoId, '--role', 'admin');
    s.viewer = await user('viewer@demo-ops.example', '--grantor', demoId, '--role', 'viewer');
  });
  afterAll(async () => t?.close());

  const screens = ['/console/api/settings/params', '/console/api/settings/keys', '/console/api/settings/users', '/console/api/settings/retention', '/console/api/webhooks'];

  it('the operator lists every grantor; a grantor’s staff only their own', async () => {
    const ids = (await call('operator', 'GET', '/console/api/grantors')).json().grantors.map((g: { id: string }) => g.id);
    expect(ids).toEqual(expect.arrayContaining([demoId, otherId]));
    expect((await call('admin', 'GET', '/console/api/grantors')).json().grantors.map((g: { id: string }) => g.id)).toEqual([demoId]);
  });

  it('the operator opens the settings, webhooks, funnel and cases of the grantor named, each call audited under it', async () => {
    for (const url of [...screens, '/console/api/funnel', '/console/api/cases']) {
      expect((await call('operator', 'GET', url)).statusCode, `${url} without a grantor`).toBe(400);
      expect((await call('operator', 'GET', `${url}?grantorId=${otherId}`)).statusCode, url).toBe(200);
    }
    for (const url of screens) expect((await call('operator', 'GET', `${url}?grantorId=${missingId}`)).statusCode, url).toBe(404);
    // The users listed are the named grantor's, not the operator's or another grantor's.
    expect(
      (await call('operator', 'GET', `/console/api/settings/users?grantorId=${demoId}`))
        .json()
        .users.map((u: { email: string }) => u.email)
        .sort(),
    ).toEqual(['admin@demo-ops.example', 'viewer@demo-ops.example']);
    expect((await call('operator', 'GET', `/console/api/settings/users?grantorId=${otherId}`)).json().users).toEqual([]);
    const seen = await audits(s.operator!.userId);
    expect(seen.filter((a) => a.action === 'settings_viewed').every((a) => a.grantor_id === otherId || a.grantor_id === demoId)).toBe(true);
    expect(seen.filter((a) => a.action === 'funnel_viewed').map((a) => a.grantor_id)).toEqual([otherId]);
  });

  it('the operator changes a grantor’s parameters, with the CSRF token, audited under that grantor', async () => {
    const res = await call('operator', 'PUT', `/console/api/settings/params?grantorId=${otherId}`, { values: { COLOR_PRIMARIO: '#224466' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await readStoredParams(t, otherId)).toMatchObject({ COLOR_PRIMARIO: '#224466' });
    expect((await readStoredParams(t, demoId)).COLOR_PRIMARIO).not.toBe('#224466');
    const noToken = await t.app.inject({
      method: 'PUT',
      url: `/console/api/settings/params?grantorId=${otherId}`,
      payload: { values: { COLOR_PRIMARIO: '#000000' } },
      headers: { cookie: s.operator!.cookie },
    });
    expect(noToken.statusCode).toBe(403);
    const changed = (await audits(s.operator!.userId)).filter((a) => a.action === 'params_updated');
    expect(changed).toEqual([{ action: 'params_updated', grantor_id: otherId }]);
  });

  it('a grantor’s admin never reaches another grantor by naming it, and a viewer is still refused the settings', async () => {
    for (const url of [...screens, '/console/api/funnel', '/console/api/cases']) {
      expect((await call('admin', 'GET', `${url}?grantorId=${otherId}`)).statusCode, url).toBe(403);
      expect((await call('admin', 'GET', `${url}?grantorId=${demoId}`)).statusCode, url).toBe(200);
    }
    expect((await call('admin', 'PUT', `/console/api/settings/params?grantorId=${otherId}`, { values: { COLOR_PRIMARIO: '#000000' } })).statusCode).toBe(403);
    expect((await readStoredParams(t, otherId)).COLOR_PRIMARIO).toBe('#224466');
    for (const url of screens) expect((await call('viewer', 'GET', `${url}?grantorId=${demoId}`)).statusCode, url).toBe(403);
    const refused = await audits(s.viewer!.userId);
    expect(refused.filter((a) => a.action === 'settings_refused' || a.action === 'webhook_refused')).toHaveLength(screens.length);
  });
});
