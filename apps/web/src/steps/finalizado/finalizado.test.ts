import { describe, expect, it } from 'vitest';
import { calls } from '@kyc/contracts';
import { createStateStorage } from '../../session/storage';
import { buildEmailRequest, bundleRequest, customUuid, finishedStatus, tipoEnvio, type EmailInput } from './email';
import { emailFollowUpMs, lockAfterFailure, reportScoreUnavailable, sendResult, type FinishDeps, type LifecycleUpdate } from './finish';
import { returnLink } from './returnLink';
import { pollScore, scorePolicy } from './score';

const uuidUser = '7d3c1a52-1111-4a4a-9b9b-000000000001';
const params = (values: Record<string, string>) => Object.entries(values).map(([idCampo, valor]) => ({ idCampo, valor }));

describe('score polling (docs/flow.md §4 "Score flag", §9)', () => {
  it('returns the first flag the server gives', async () => {
    const answers = [Promise.reject(new Error('503')), Promise.resolve({}), Promise.resolve({ flag: 'YELLOW', Fields: [{ rule: 'face', passed: false, detail: 'x' }] })];
    const sleeps: number[] = [];
    const outcome = await pollScore({ fetchScore: () => answers.shift()!, sleep: async (ms) => void sleeps.push(ms) });
    expect(outcome).toEqual({ kind: 'scored', score: { flag: 'YELLOW', fields: [{ rule: 'face', passed: false, detail: 'x' }] }, tries: 3 });
    expect(sleeps).toEqual([200, 200]);
  });

  it('"a retry runs after 200 ms while the counter is under 15": 15 calls at most, then RED by default', async () => {
    let calls = 0;
    const sleeps: number[] = [];
    const outcome = await pollScore({
      fetchScore: async () => {
        calls += 1;
        return { flag: 'BLUE' };
      },
      sleep: async (ms) => void sleeps.push(ms),
    });
    expect(scorePolicy).toEqual({ maxTries: 15, delayMs: 200 });
    expect(calls).toBe(15);
    expect(sleeps).toHaveLength(14);
    expect(outcome).toMatchObject({ kind: 'unavailable', flag: 'RED', tries: 15 });
  });

  it('stops when the screen goes away', async () => {
    const controller = new AbortController();
    const poll = pollScore({
      fetchScore: async () => ({}),
      sleep: async () => controller.abort(),
      signal: controller.signal,
    });
    await expect(poll).rejects.toThrow();
  });
});

describe('result e-mail (docs/flow.md §3 Email request, §4 Sending result)', () => {
  const input: EmailInput = {
    flag: 'GREEN',
    email: ' ana@example.com ',
    uuidUser,
    params: params({ PARTNER: 'Mi Socio Uno', NOMBRE_CORTO: 'Fin' }),
    dataUser: [
      { description: 'nombreCompleto', value: 'ANA LOPEZ PEREZ' },
      { description: 'nacimiento', value: '05/01/1990' },
      { description: 'curp', value: 'LOPA900105MDFPRN09' },
      { description: 'vigencia', value: '31/12/2030' },
      { description: 'terms_acepted', value: 'true' },
    ],
    ocrFront: { nombres: 'ANA' },
    ocrBack: null,
    detailsScore: [{ rule: 'face', passed: true, detail: 'ok' }],
    face: { match: true, liveness: true },
    originOS: 'android',
    now: new Date(Date.UTC(2026, 10, 6, 18)),
  };

  it('"Custom id: partner (spaces turned to _) + short name + date ddmmyyyy + first segment of the user id"', () => {
    expect(customUuid(input.params, uuidUser, new Date(Date.UTC(2026, 10, 6, 18)))).toBe('Mi_Socio_UnoFin061120267d3c1a52');
    expect(customUuid(params({}), uuidUser, new Date(Date.UTC(2027, 0, 31, 12)))).toBe('310120277d3c1a52');
  });

  it("dates the custom id in Mexico City, the grantor's legal time zone", () => {
    // 03:00 UTC on 1 Feb is still 31 Jan in Mexico City (UTC-6).
    expect(customUuid(params({ NOMBRE_CORTO: 'Fin' }), uuidUser, new Date(Date.UTC(2027, 1, 1, 3)))).toBe('Fin310120277d3c1a52');
  });

  it('"GREEN sends tipo_envio COMPLETO; others SEMAFORO; the semaphore is sent lowercase"', () => {
    expect(tipoEnvio('GREEN')).toBe('COMPLETO');
    expect(tipoEnvio('YELLOW')).toBe('SEMAFORO');
    expect(tipoEnvio('RED')).toBe('SEMAFORO');
    expect(buildEmailRequest({ ...input, flag: 'YELLOW' })).toMatchObject({ tipo_envio: 'SEMAFORO', semaforo: 'yellow' });
  });

  it('"Finished event status OK, or FAIL when YELLOW"', () => {
    expect(finishedStatus('GREEN')).toBe('OK');
    expect(finishedStatus('YELLOW')).toBe('FAIL');
  });

  it('builds the body from the stored user data, OCR, score details and face result', () => {
    expect(buildEmailRequest(input)).toEqual({
      tipo_envio: 'COMPLETO',
      semaforo: 'green',
      uuidUser,
      name: 'ANA LOPEZ PEREZ',
      email: 'ana@example.com',
      fNac: '05/01/1990',
      curp: 'LOPA900105MDFPRN09',
      vigencia: '31/12/2030',
      ocrFront: { nombres: 'ANA' },
      data_user: input.dataUser,
      detailsScore: input.detailsScore,
      custom_uuid: 'Mi_Socio_UnoFin061120267d3c1a52',
      originOS: 'android',
      coincidencia: { match: true, liveness: true },
    });
  });

  it("the bodies satisfy the calls' contracts (async_zip_nom_151_correo and nom_151)", () => {
    for (const flag of ['GREEN', 'YELLOW'] as const) {
      const body = buildEmailRequest({ ...input, flag });
      expect(calls.emailResult.body.safeParse(body).success).toBe(true);
      expect(calls.nom151.body.safeParse(bundleRequest(body, { clausula: '/v1/enlace/x' })).success).toBe(true);
    }
  });

  it('"curp (DNI for some grantors)"', () => {
    const dni = buildEmailRequest({ ...input, dataUser: [{ description: 'dni', value: '12345678' }], face: null });
    expect(dni.curp).toBe('12345678');
    expect(dni.name).toBe('');
    expect(dni).not.toHaveProperty('coincidencia');
  });
});

function finishDeps(overrides: Partial<FinishDeps> = {}) {
  const storage = createStateStorage(null);
  storage.set('completado', 'false');
  const events: Array<LifecycleUpdate & { completado: string | null }> = [];
  const sleeps: number[] = [];
  const bundles: unknown[] = [];
  const deps: FinishDeps = {
    storage,
    sendEmail: async () => ({ status: 200 }),
    sendBundle: async (body) => void bundles.push(body),
    processDocuments: async () => ({ clausula: '/v1/enlace/abc' }),
    lifecycle: async (update) => void events.push({ ...update, completado: storage.get('completado') }),
    sleep: async (ms) => void sleeps.push(ms),
    now: () => 1_800_000_000_000,
    ...overrides,
  };
  return { deps, storage, events, sleeps, bundles };
}

describe('finishing (docs/flow.md §4)', () => {
  const request = buildEmailRequest({
    flag: 'YELLOW',
    email: 'a@b.mx',
    uuidUser,
    params: null,
    dataUser: [],
    ocrFront: null,
    ocrBack: null,
    detailsScore: [],
    face: null,
    originOS: 'desktop',
    now: new Date(),
  });

  it('"On email success ... the final event is sent after 500 ms ... completado then set to true"', async () => {
    const { deps, storage, events, sleeps } = finishDeps();
    const outcome = await sendResult(deps, request, 'YELLOW', { fetchDocumentsFirst: false });
    expect(outcome).toEqual({ ok: true, result: 'FAIL', links: null });
    expect(sleeps).toEqual([emailFollowUpMs]);
    expect(emailFollowUpMs).toBe(500);
    expect(events).toEqual([{ step: 'finished', status: 'FAIL', description: 'Proceso finalizado', completado: 'false' }]);
    expect(storage.get('completado')).toBe('true');
    expect(storage.get('correoElectronico')).toBe('a@b.mx');
  });

  it('fetches and stores the documents first when the full result goes to the opener', async () => {
    const { deps, storage } = finishDeps();
    const outcome = await sendResult(deps, request, 'GREEN', { fetchDocumentsFirst: true });
    expect(outcome).toEqual({ ok: true, result: 'OK', links: { clausula: '/v1/enlace/abc' } });
    expect(JSON.parse(storage.get('links')!)).toEqual({ clausula: '/v1/enlace/abc' });
  });

  it('sends the nom_151 evidence bundle after the e-mail only when SEND_ZIP_SEMAFORO is on', async () => {
    const off = finishDeps();
    await sendResult(off.deps, request, 'YELLOW', { fetchDocumentsFirst: false });
    expect(off.bundles).toEqual([]);
    const on = finishDeps();
    await sendResult(on.deps, request, 'YELLOW', { fetchDocumentsFirst: true, sendBundle: true });
    expect(on.bundles).toEqual([
      {
        uuidUser,
        custom_uuid: request.custom_uuid,
        data_user: [],
        links: { clausula: '/v1/enlace/abc' },
        email: 'a@b.mx',
        tipo_envio: 'SEMAFORO',
        semaforo: 'yellow',
      },
    ]);
  });

  it('"Email failure or non-200 reports step email_check failed" and finishes nothing', async () => {
    const failure = Object.assign(new Error('bad email'), { messageClient: 'Correo no válido' });
    const { deps, storage, events } = finishDeps({ sendEmail: async () => Promise.reject(failure) });
    const outcome = await sendResult(deps, request, 'GREEN', { fetchDocumentsFirst: false });
    expect(outcome).toEqual({ ok: false, message: 'bad email', messageClient: 'Correo no válido' });
    expect(events).toEqual([{ step: 'email_check', status: 'FAIL', description: 'bad email', completado: 'false' }]);
    expect(storage.get('completado')).toBe('false');
  });

  it('a RED result sets the one-hour lock, fetches the documents and sends the FAIL event', async () => {
    const { deps, storage, events } = finishDeps();
    await lockAfterFailure(deps);
    expect(storage.get('bloqueo')).toBe('true');
    expect(storage.get('time')).toBe(String(1_800_000_000_000 + 3_600_000));
    expect(storage.get('links')).not.toBeNull();
    expect(events).toEqual([{ step: 'finished', status: 'FAIL', description: 'Proceso no exitoso', completado: 'false' }]);
    expect(storage.get('completado')).toBe('true');
  });

  it('"Beyond that the step score_check is reported failed with \'Sin valores en el score\'"; completado true', async () => {
    const { deps, storage, events } = finishDeps();
    await reportScoreUnavailable(deps);
    expect(events).toEqual([{ step: 'score_check', status: 'FAIL', description: 'Sin valores en el score', completado: 'false' }]);
    expect(storage.get('completado')).toBe('true');
  });
});

describe("'Volver al origen' deep link", () => {
  const ids = { uuidUser, uuidTrx: '5f2e9c10-2222-4b4b-8c8c-000000000002' };
  it('turns a bare scheme into an app link and keeps a full address, both with the ids', () => {
    expect(returnLink('miapp', ids)).toBe(`miapp://resultado?uuid=${uuidUser}&transaccion=${ids.uuidTrx}`);
    expect(returnLink('https://socio.mx/vuelta?x=1', ids)).toBe(`https://socio.mx/vuelta?x=1&uuid=${uuidUser}&transaccion=${ids.uuidTrx}`);
  });
  it('refuses script and local schemes, and nothing stored means no link', () => {
    expect(returnLink('javascript:alert(1)', ids)).toBeNull();
    expect(returnLink('JavaScript', ids)).toBeNull();
    expect(returnLink('data:text/html,x', ids)).toBeNull();
    expect(returnLink(null, ids)).toBeNull();
    expect(returnLink('  ', ids)).toBeNull();
  });
});
