import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runGrantorCommand } from '../src/cli/grantor-commands.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, trxHeaders } from './support/fixtures.js';

async function cli(t: TestApp, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runGrantorCommand(t, argv, { out: (l) => out.push(l), err: (l) => err.push(l) }, 'https://kyc.example');
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const keyFrom = (text: string) => /api key: (\S+)/.exec(text)?.[1] ?? /New api key for \S+: (\S+)/.exec(text)?.[1] ?? '';

describe.each(engines)('grantor CLI ($name)', (engine) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(engine);
  });
  afterAll(async () => t?.close());

  const params = (apikey: string) => t.app.inject({ method: 'GET', url: '/v1/params', headers: trxHeaders(apikey) });

  it('create prints the id and a new api key once; the key works', async () => {
    const id = randomUUID();
    const created = await cli(t, 'create', '--name', 'Préstamos del Bajío', '--id', id);
    expect(created.code).toBe(0);
    expect(created.out).toContain(`id:      ${id}`);
    const key = keyFrom(created.out);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.out).toContain(`https://kyc.example/${key}`);
    const res = await params(key);
    expect(res.statusCode).toBe(200);
    expect(res.json().payload).toContainEqual({ idCampo: 'ID_OTORGANTE', valor: id });
    const stored = await t.db.selectFrom('grantors').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(stored.apikey_hash).not.toContain(key);
    expect(stored.apikey_prefix).toBe(key.slice(0, 4));
  });

  it('create refuses a duplicate id, a bad id and a missing name', async () => {
    expect((await cli(t, 'create', '--name', 'Dup', '--id', demoId)).code).toBe(1);
    expect((await cli(t, 'create', '--name', 'Bad', '--id', 'nope')).code).toBe(2);
    expect((await cli(t, 'create')).code).toBe(2);
  });

  it('set stores parameters that the params call returns', async () => {
    const key = keyFrom((await cli(t, 'create', '--name', 'Caja Popular Sur')).out);
    const id = (await t.db.selectFrom('grantors').select('id').where('name', '=', 'Caja Popular Sur').executeTakeFirstOrThrow()).id;
    const result = await cli(t, 'set', id, 'COLOR_PRIMARIO=#123456', 'NOMBRE_CORTO=Caja Sur', 'INTENTOS_VIDEO_TOKEN=5', 'URL_CHAT=https://chat.example/?folio={folio}');
    expect(result.code).toBe(0);
    expect(result.out).toContain('Updated 4 parameter(s)');
    const payload = (await params(key)).json().payload;
    expect(payload).toContainEqual({ idCampo: 'COLOR_PRIMARIO', valor: '#123456' });
    expect(payload).toContainEqual({ idCampo: 'NOMBRE_CORTO', valor: 'Caja Sur' });
    expect(payload).toContainEqual({ idCampo: 'INTENTOS_VIDEO_TOKEN', valor: '5' });
  });

  it('set refuses an unknown parameter name listing the valid ones, and bad values, storing nothing', async () => {
    const bad = await cli(t, 'set', demoId, 'COLOR_PRIMARIO=#000000', 'color_primario=#111111');
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('unknown parameter "color_primario"');
    expect(bad.err).toContain('COLOR_PRIMARIO');
    expect(bad.err).toContain('INTENTOS_VIDEO_TOKEN');
    expect((await cli(t, 'set', demoId, 'COLOR_PRIMARIO=blue')).err).toContain('colour');
    expect((await cli(t, 'set', demoId, 'APIKEY=abc')).err).toContain('rotate-key');
    expect((await cli(t, 'set', demoId, 'LOGO_OTORGANTE=https://cdn.example/logo.png')).code).toBe(1);
    expect((await cli(t, 'set', randomUUID(), 'COLOR_PRIMARIO=#000000')).err).toContain('no grantor');
    const payload = (await params('demo')).json().payload;
    expect(payload).toContainEqual({ idCampo: 'COLOR_PRIMARIO', valor: '#0B4F8A' });
  });

  it('set accepts an unknown upper-case parameter with a warning', async () => {
    const result = await cli(t, 'set', demoId, 'MI_BANDERA=si');
    expect(result.code).toBe(0);
    expect(result.err).toContain('warning: MI_BANDERA');
    expect((await params('demo')).json().payload).toContainEqual({ idCampo: 'MI_BANDERA', valor: 'si' });
  });

  it('rotate-key issues a new key and the old one is refused', async () => {
    const oldKey = keyFrom((await cli(t, 'create', '--name', 'Rotación SA')).out);
    const id = (await t.db.selectFrom('grantors').select('id').where('name', '=', 'Rotación SA').executeTakeFirstOrThrow()).id;
    expect((await params(oldKey)).statusCode).toBe(200);
    const rotated = await cli(t, 'rotate-key', id);
    expect(rotated.code).toBe(0);
    const newKey = keyFrom(rotated.out);
    expect(newKey).not.toBe(oldKey);
    expect((await params(oldKey)).statusCode).toBe(401);
    expect((await params(newKey)).statusCode).toBe(200);
  });

  it('list and show never print a key; deactivate and activate toggle access', async () => {
    const key = keyFrom((await cli(t, 'create', '--name', 'Listada')).out);
    const id = (await t.db.selectFrom('grantors').select('id').where('name', '=', 'Listada').executeTakeFirstOrThrow()).id;
    const listed = await cli(t, 'list');
    expect(listed.out).toContain(id);
    expect(listed.out).not.toContain(key);
    const shown = await cli(t, 'show', id);
    expect(shown.out).toContain('COLOR_PRIMARIO');
    expect(shown.out).not.toContain(key);
    expect(shown.out).not.toContain('APIKEY');
    expect((await cli(t, 'deactivate', id)).code).toBe(0);
    expect((await params(key)).statusCode).toBe(401);
    expect((await cli(t, 'activate', id)).code).toBe(0);
    expect((await params(key)).statusCode).toBe(200);
  });

  it('explains usage for unknown commands and options', async () => {
    expect((await cli(t)).code).toBe(2);
    const unknown = await cli(t, 'frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('Usage:');
    expect((await cli(t, 'list', '--bogus')).code).toBe(2);
    expect((await cli(t, '--help')).code).toBe(0);
  });
});
