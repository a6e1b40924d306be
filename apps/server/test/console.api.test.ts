import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { createDataCipher, loadDataKey } from '../src/crypto/data-cipher.js';
import { insertGrantor } from '../src/store/grantors.js';
import { timeStep, totpAt } from '../src/features/console/totp.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, lifecycleEvent, startedTransaction, trxHeaders } from './support/fixtures.js';
import { acceptConsents } from './support/journey.js';

const curp = 'NUZM900101MDFXXX09';
const otherKey = 'other-grantor-key-0123456789';
const otherId = '00000000-0000-4000-8000-0000000000b2';

interface Created {
  password: string;
  secret: string | undefined;
}

/**
 * The review console's first slice (issue #16): staff sign-in with scrypt passwords, TOTP, database sessions,
 * CSRF, lockout and audit; the case list of the user's grantor with filters, keyset pages and the blind-index search.
 */
describe.each(engines)('review console ($name)', (engine) => {
  let t: TestApp;
  const cipher = () => createDataCipher(loadDataKey(t.config).key);

  async function createUser(...argv: string[]): Promise<Created> {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runGrantorCommand(t, ['console-user-create', ...argv], { out: (l) => out.push(l), err: (l) => err.push(l) }, undefined, cipher);
    expect(code, err.join('\n')).toBe(0);
    const text = out.join('\n');
    const uri = /totp: +(otpauth:\/\/\S+)/.exec(text)?.[1];
    return { password: /password: (\S+)/.exec(text)![1]!, secret: uri ? new URL(uri).searchParams.get('secret')! : undefined };
  }

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url, payload: payload as object, headers });
  const cookieOf = (res: { cookies: { name: string; value: string }[] }) => {
    const cookie = res.cookies.find((c) => c.name === 'kyc_console');
    return `kyc_console=${cookie?.value ?? ''}`;
  };

  /** Signs in with password and, when due, the code of `step` (default: the current one). */
  async function signIn(email: string, created: Created, step?: number) {
    const first = await post('/console/api/session', { email, password: created.password });
    expect(first.statusCode, first.body).toBe(200);
    if (first.json().stage === 'active') return { cookie: cookieOf(first), csrf: first.json().csrfToken as string };
    const code = totpAt(created.secret!, step ?? timeStep(new Date()));
    const second = await post('/console/api/session/totp', { code }, { cookie: cookieOf(first), 'x-csrf-token': first.json().csrfToken });
    expect(second.statusCode, second.body).toBe(200);
    return { cookie: cookieOf(second), csrf: second.json().csrfToken as string };
  }

  const cases = (cookie: string, query = '') => t.app.inject({ method: 'GET', url: `/console/api/cases${query}`, headers: { cookie } });
  const auditActions = async () => await t.db.selectFrom('console_audit').select(['action', 'detail']).orderBy('id').execute();

  let admin: Created;
  let demoTrx: string;
  let otherTrx: string;

  beforeAll(async () => {
    t = await startTestApp(engine, { CONSOLE_COOKIE_SECURE: 'true' });
    await insertGrantor(t, { id: otherId, name: 'Otra Financiera', apiKey: otherKey });
    admin = await createUser('--grantor', demoId, '--email', 'Admin@Demo.example', '--role', 'admin');

    // A case of the demo grantor, with a name (lifecycle event) and a CURP (the CURP check call).
    const demo = await startedTransaction(t.app);
    demoTrx = demo.transaccion;
    expect((await post('/v1/update_cycle', lifecycleEvent(demo), demo)).statusCode).toBe(200);
    await acceptConsents(t.app, demo);
    const renapo = await post('/v1/renapo', { uuid: demo.cliente, turn: -1, curp }, demo);
    expect(renapo.statusCode, renapo.body).toBe(200);
    // And one of another grantor, with the same name and CURP.
    const other = await startedTransaction(t.app, otherKey);
    otherTrx = other.transaccion;
    expect((await post('/v1/update_cycle', { ...lifecycleEvent(other), company_id: otherId }, other)).statusCode).toBe(200);
    await acceptConsents(t.app, other);
    expect((await post('/v1/renapo', { uuid: other.cliente, turn: -1, curp }, other)).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it('the CLI prints a generated password and an otpauth:// URI once, and stores neither in clear', async () => {
    expect(admin.password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(admin.secret).toMatch(/^[A-Z2-7]{32}$/);
    const row = await t.db.selectFrom('console_users').selectAll().where('email', '=', 'admin@demo.example').executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(JSON.stringify(row)).not.toContain(admin.password);
    expect(JSON.stringify(row)).not.toContain(admin.secret);
  });

  it('refuses a wrong password and an unknown e-mail with the same answer, and audits both', async () => {
    const wrong = await post('/console/api/session', { email: 'admin@demo.example', password: 'not-the-password' });
    const unknown = await post('/console/api/session', { email: 'nobody@demo.example', password: 'not-the-password' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message_client).toBe(unknown.json().message_client);
    expect(wrong.cookies).toHaveLength(0);
    const failed = (await auditActions()).filter((a) => a.action === 'sign_in_failed');
    expect(failed.map((a) => JSON.parse(a.detail).email)).toEqual(expect.arrayContaining(['admin@demo.example', 'nobody@demo.example']));
    expect(JSON.stringify(await auditActions())).not.toContain('not-the-password');
  });

  it('an admin needs the TOTP code: the password alone opens nothing, a wrong code is refused', async () => {
    const first = await post('/console/api/session', { email: 'admin@demo.example', password: admin.password });
    expect(first.json().stage).toBe('totp');
    const halfway = cookieOf(first);
    expect((await cases(halfway)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/console/api/session', headers: { cookie: halfway } })).statusCode).toBe(401);
    const wrongCode = totpAt(admin.secret!, timeStep(new Date()) - 5);
    const refused = await post('/console/api/session/totp', { code: wrongCode }, { cookie: halfway, 'x-csrf-token': first.json().csrfToken });
    expect(refused.statusCode).toBe(401);
    expect((await auditActions()).some((a) => a.action === 'totp_failed')).toBe(true);
  });

  it('signs in with password and code; the cookie is HttpOnly, Secure, SameSite=Strict on /console; a code is used once', async () => {
    const first = await post('/console/api/session', { email: 'admin@demo.example', password: admin.password });
    const step = timeStep(new Date());
    const code = totpAt(admin.secret!, step);
    const second = await post('/console/api/session/totp', { code }, { cookie: cookieOf(first), 'x-csrf-token': first.json().csrfToken });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ stage: 'active', user: { email: 'admin@demo.example', role: 'admin', grantorId: demoId } });
    const header = String(second.headers['set-cookie']);
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/Secure/);
    expect(header).toMatch(/SameSite=Strict/);
    expect(header).toMatch(/Path=\/console/);
    // The session's id is stored hashed only.
    const value = second.cookies.find((c) => c.name === 'kyc_console')!.value;
    const sessions = await t.db.selectFrom('console_sessions').selectAll().execute();
    expect(JSON.stringify(sessions)).not.toContain(value);
    // The same code again (a replay) is refused.
    const again = await post('/console/api/session', { email: 'admin@demo.example', password: admin.password });
    const replay = await post('/console/api/session/totp', { code }, { cookie: cookieOf(again), 'x-csrf-token': again.json().csrfToken });
    expect(replay.statusCode).toBe(401);
    const actions = (await auditActions()).map((a) => a.action);
    expect(actions).toContain('sign_in');
  });

  it('refuses a state-changing call without the CSRF token', async () => {
    const session = await signIn('admin@demo.example', admin, timeStep(new Date()) + 1);
    const noToken = await t.app.inject({ method: 'DELETE', url: '/console/api/session', headers: { cookie: session.cookie } });
    expect(noToken.statusCode).toBe(403);
    const wrongToken = await t.app.inject({ method: 'DELETE', url: '/console/api/session', headers: { cookie: session.cookie, 'x-csrf-token': 'x'.repeat(43) } });
    expect(wrongToken.statusCode).toBe(403);
    expect((await cases(session.cookie)).statusCode).toBe(200);
    const signOut = await t.app.inject({ method: 'DELETE', url: '/console/api/session', headers: { cookie: session.cookie, 'x-csrf-token': session.csrf } });
    expect(signOut.statusCode).toBe(204);
    expect((await cases(session.cookie)).statusCode).toBe(401);
    // A sign-in from another origin is refused before the password is looked at.
    const crossSite = await post('/console/api/session', { email: 'admin@demo.example', password: admin.password }, { origin: 'https://evil.example' });
    expect(crossSite.statusCode).toBe(403);
  });

  it('locks an e-mail for 15 minutes after 5 failures, even for the right password, and audits the lockout', async () => {
    const reviewer = await createUser('--grantor', demoId, '--email', 'revisor@demo.example', '--role', 'reviewer');
    expect(reviewer.secret).toBeUndefined();
    for (let i = 0; i < 5; i += 1) {
      expect((await post('/console/api/session', { email: 'revisor@demo.example', password: `wrong-${i}` })).statusCode).toBe(401);
    }
    const locked = await post('/console/api/session', { email: 'revisor@demo.example', password: reviewer.password });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message_client).toMatch(/15 minutos/);
    expect((await auditActions()).some((a) => a.action === 'locked_out' && JSON.parse(a.detail).email === 'revisor@demo.example')).toBe(true);
    // The lock ends: moved into the past, the right password works again.
    await t.db
      .updateTable('console_lockouts')
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await post('/console/api/session', { email: 'revisor@demo.example', password: reviewer.password })).statusCode).toBe(200);
  });

  it('ends an expired session', async () => {
    const viewer = await createUser('--grantor', demoId, '--email', 'lector@demo.example', '--role', 'viewer');
    const session = await signIn('lector@demo.example', viewer);
    expect((await cases(session.cookie)).statusCode).toBe(200);
    await t.db
      .updateTable('console_sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();
    const expired = await cases(session.cookie);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message_client).toMatch(/sesión/);
  });

  it("lists the grantor's cases with the holder's name, never another grantor's", async () => {
    const reader = await createUser('--grantor', demoId, '--email', 'lista@demo.example', '--role', 'viewer');
    const session = await signIn('lista@demo.example', reader);
    const page = await cases(session.cookie);
    expect(page.statusCode, page.body).toBe(200);
    const listed = page.json().cases as { uuidTrx: string; holderName: string | null; status: string; step: string }[];
    expect(listed.map((c) => c.uuidTrx)).toContain(demoTrx);
    expect(listed.map((c) => c.uuidTrx)).not.toContain(otherTrx);
    expect(listed.find((c) => c.uuidTrx === demoTrx)).toMatchObject({ holderName: 'María Fernanda Núñez Zúñiga', status: 'in_progress', step: 'terminos' });
    // Asking for the other grantor's case, or its list, is refused.
    expect((await t.app.inject({ method: 'GET', url: `/console/api/cases/${otherTrx}`, headers: { cookie: session.cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/console/api/cases/${demoTrx}`, headers: { cookie: session.cookie } })).statusCode).toBe(200);
    expect((await cases(session.cookie, `?grantorId=${otherId}`)).statusCode).toBe(403);
    const byFolio = await cases(session.cookie, `?q=${otherTrx.slice(0, 8)}`);
    expect(byFolio.json().cases).toEqual([]);
    const audited = (await auditActions()).map((a) => a.action);
    expect(audited).toEqual(expect.arrayContaining(['cases_listed', 'case_viewed', 'case_refused']));
  });

  it('finds the case by CURP through the blind index; the database holds no plaintext CURP or name', async () => {
    const viewer = await createUser('--grantor', demoId, '--email', 'lector2@demo.example', '--role', 'viewer');
    const s = await signIn('lector2@demo.example', viewer);
    const found = await cases(s.cookie, `?q=${curp.toLowerCase()}`);
    expect(found.json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).toEqual([demoTrx]);
    const byName = await cases(s.cookie, '?q=nunez%20zuniga');
    expect(byName.json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).toEqual([demoTrx]);
    const byFolio = await cases(s.cookie, `?q=${demoTrx.slice(0, 8)}`);
    expect(byFolio.json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).toEqual([demoTrx]);
    expect((await cases(s.cookie, '?q=PEREZ')).json().cases).toEqual([]);
    const terms = await t.db.selectFrom('console_search_terms').selectAll().where('uuid_trx', '=', demoTrx).execute();
    expect(terms.some((r) => r.kind === 'curp')).toBe(true);
    // Every table, every row: neither the CURP nor the name appears in clear.
    const tables = await t.db.introspection.getTables();
    for (const table of tables) {
      const rows = await sql`select * from ${sql.table(table.name)}`.execute(t.db);
      const text = JSON.stringify(rows.rows);
      expect(text, table.name).not.toContain(curp);
      expect(text, table.name).not.toContain('Zúñiga');
    }
  });

  it('filters by status and dates and pages by keyset without gaps or repeats', async () => {
    const viewer = await createUser('--grantor', demoId, '--email', 'pager@demo.example', '--role', 'viewer');
    const s = await signIn('pager@demo.example', viewer);
    for (let i = 0; i < 4; i += 1) {
      const h = trxHeaders();
      expect((await post('/v1/update_cycle', lifecycleEvent(h, { nombreCompleto: `Persona ${i}` }), h)).statusCode).toBe(200);
    }
    // One case went quiet two hours ago at its step: abandoned (CONSOLE_ABANDON_MINUTES defaults to 60).
    await t.db
      .updateTable('transactions')
      .set({ updated_at: new Date(Date.now() - 2 * 3_600_000).toISOString() })
      .where('uuid_trx', '=', demoTrx)
      .execute();
    const abandoned = await cases(s.cookie, '?status=abandoned');
    expect(abandoned.json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).toEqual([demoTrx]);
    expect(abandoned.json().cases[0]).toMatchObject({ status: 'abandoned', step: 'terminos' });
    expect((await cases(s.cookie, '?status=in_progress')).json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).not.toContain(demoTrx);
    const today = new Date().toISOString().slice(0, 10);
    expect((await cases(s.cookie, `?from=${today}&to=${today}`)).json().cases).toHaveLength(5);
    expect((await cases(s.cookie, '?to=2000-01-01')).json().cases).toHaveLength(0);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await cases(s.cookie, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.json().cases.map((c: { uuidTrx: string }) => c.uuidTrx));
      cursor = res.json().nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    expect(seen).not.toContain(otherTrx);
  });

  it('a finished case is listed with the flag of its score, and the status filter finds it', async () => {
    const viewer = await createUser('--grantor', demoId, '--email', 'flags@demo.example', '--role', 'viewer');
    const s = await signIn('flags@demo.example', viewer);
    const h = trxHeaders();
    expect((await post('/v1/update_cycle', lifecycleEvent(h), h)).statusCode).toBe(200);
    const finish = lifecycleEvent(h, { step: 'finished', event: JSON.stringify({ status: 'OK', step: 'finished', description: 'Terminó' }) });
    expect((await post('/v1/update_cycle', finish, h)).statusCode).toBe(200);
    const listed = (await cases(s.cookie)).json().cases.find((c: { uuidTrx: string }) => c.uuidTrx === h.transaccion);
    // No evidence at all: the score's rules (ID read, face) fail, so the flag is not GREEN; which of the others is the score's business.
    expect(['YELLOW', 'RED']).toContain(listed.status);
    const stored = await t.db.selectFrom('console_cases').select('flag').where('uuid_trx', '=', h.transaccion).executeTakeFirstOrThrow();
    expect(stored.flag).toBe(listed.status);
    const filtered = (await cases(s.cookie, `?status=${listed.status}`)).json().cases.map((c: { uuidTrx: string }) => c.uuidTrx);
    expect(filtered).toContain(h.transaccion);
    expect((await cases(s.cookie, '?status=GREEN')).json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).not.toContain(h.transaccion);
    expect((await cases(s.cookie, '?status=in_progress')).json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).not.toContain(h.transaccion);
  });

  it('a platform operator chooses the grantor', async () => {
    const operator = await createUser('--email', 'ops@plataforma.example', '--role', 'operator');
    expect(operator.secret).toBeDefined();
    const s = await signIn('ops@plataforma.example', operator);
    expect((await cases(s.cookie)).statusCode).toBe(400);
    const other = await cases(s.cookie, `?grantorId=${otherId}`);
    expect(other.json().cases.map((c: { uuidTrx: string }) => c.uuidTrx)).toEqual([otherTrx]);
    const grantors = await t.app.inject({ method: 'GET', url: '/console/api/grantors', headers: { cookie: s.cookie } });
    expect(grantors.json().grantors.map((g: { id: string }) => g.id)).toEqual(expect.arrayContaining([demoId, otherId]));
  });

  it('the CLI refuses a bad role, a missing grantor and a duplicate e-mail', async () => {
    const run = async (...argv: string[]) => runGrantorCommand(t, ['console-user-create', ...argv], { out: () => {}, err: () => {} }, undefined, cipher);
    expect(await run('--grantor', demoId, '--email', 'x@demo.example', '--role', 'root')).toBe(2);
    expect(await run('--email', 'x@demo.example', '--role', 'admin')).toBe(2);
    expect(await run('--grantor', randomUUID(), '--email', 'x@demo.example')).toBe(2);
    expect(await run('--grantor', demoId, '--email', 'admin@demo.example')).toBe(2);
  });
});
