import { describe, expect, it } from 'vitest';
import { delays, next } from './journey';
import type { Effect, JourneyContext, Transition } from './types';

const uuidUser = '7d3c1a52-1111-4a4a-9b9b-000000000001';
const uuidTrx = '5f2e9c10-2222-4b4b-8c8c-000000000002';

function ctx(params: Record<string, string> = {}, overrides: Partial<JourneyContext> = {}): JourneyContext {
  return {
    params: Object.entries(params).map(([idCampo, valor]) => ({ idCampo, valor })),
    apikey: 'key-123',
    uuidUser,
    uuidTrx,
    idOtorgante: 'oto-9',
    fechavigencia: '1800000000000',
    isPopup: false,
    mediaRecorderSupported: true,
    now: 1_700_000_000_000,
    ...overrides,
  };
}

const popup = (params: Record<string, string> = {}) => ctx(params, { isPopup: true });

function effect<K extends Effect['kind']>(t: Transition | null, kind: K): Extract<Effect, { kind: K }> | undefined {
  return t?.effects?.find((e): e is Extract<Effect, { kind: K }> => e.kind === kind);
}

describe('entry /{apikey}', () => {
  it('"EMPEZAR goes to /terminos when consent 1 is enabled (default true)"', () => {
    const t = next('inicio', { type: 'start' }, ctx());
    expect(t).toMatchObject({ route: '/terminos', delayMs: 200 });
    expect(effect(t, 'lifecycle')).toMatchObject({ step: 'inicio', status: 'OK' });
  });

  it('"else to /preparacion_identificacion (after 200 ms)"', () => {
    for (const off of ['false', 'FALSO']) {
      expect(next('inicio', { type: 'start' }, ctx({ ENABLE_CONSENTIMIENTO_1: off }))).toMatchObject({
        route: '/preparacion_identificacion',
        delayMs: delays.afterStart,
      });
    }
  });

  it('"Opener messages: inicio_page, inicio, ..." — only inside a popup', () => {
    expect(next('inicio', { type: 'enter' }, ctx())).toBeNull();
    const page = next('inicio', { type: 'enter' }, popup());
    expect(page).toMatchObject({ route: null, delayMs: 0 });
    expect(effect(page, 'opener')?.message).toEqual({ step: 'inicio_page', result: 'OK', uuid: uuidUser });
    expect(effect(next('inicio', { type: 'start' }, popup()), 'opener')?.message).toMatchObject({ step: 'inicio', result: 'OK' });
    expect(effect(next('inicio', { type: 'start' }, ctx()), 'opener')).toBeUndefined();
  });

  it('the help button opens "/ayuda/{ruta}" for the entry route', () => {
    expect(next('inicio', { type: 'help' }, ctx())).toMatchObject({ route: '/ayuda/key-123', delayMs: 0 });
  });
});

describe('/terminos (consent 1)', () => {
  const acceptance = { version: '1', sha256: 'ab'.repeat(32), userAgent: 'test' };

  it('"On accept an event is recorded and it goes to /preparacion_identificacion after 1 s."', () => {
    const t = next('terminos', { type: 'accept', acceptance }, ctx());
    expect(t).toMatchObject({ route: '/preparacion_identificacion', delayMs: 1000 });
    const audit = effect(t, 'audit');
    expect(audit).toMatchObject({ paso: 'terminos', tipo: 'Aceptación' });
    expect(JSON.parse(audit?.dato ?? '')).toEqual(acceptance);
    expect(effect(t, 'userDatum')).toEqual({ kind: 'userDatum', description: 'terms_acepted', value: 'true' });
  });

  it('"If REQ_ACEPTACION_DE_DATOS is FALSO it redirects straight to /preparacion_identificacion."', () => {
    expect(next('terminos', { type: 'enter' }, ctx({ REQ_ACEPTACION_DE_DATOS: 'FALSO' }))).toEqual({
      route: '/preparacion_identificacion',
      delayMs: 0,
      replace: true,
    });
    expect(next('terminos', { type: 'enter' }, ctx())).toBeNull();
    expect(next('terminos', { type: 'enter' }, ctx({ REQ_ACEPTACION_DE_DATOS: 'VERDADERO' }))).toBeNull();
  });
});

describe('/pasos_configuracion', () => {
  it('"If recording is supported it redirects to /preparacion_identificacion."', () => {
    expect(next('pasos_configuracion', { type: 'enter' }, ctx())).toMatchObject({
      route: '/preparacion_identificacion',
      replace: true,
    });
    expect(next('pasos_configuracion', { type: 'enter' }, ctx({}, { mediaRecorderSupported: false }))).toBeNull();
  });
});

describe('ID preparation /preparacion_identificacion', () => {
  it('"CAPTURAR IDENTIFICACIÓN goes to /identificacion with state passport=false."', () => {
    expect(next('preparacion_identificacion', { type: 'capture' }, ctx())).toEqual({
      route: '/identificacion',
      delayMs: 0,
      state: { passport: false },
    });
  });

  it('"SI reports cancellation and after 300 ms goes to /{apikey}"', () => {
    const t = next('preparacion_identificacion', { type: 'cancelConfirmed' }, ctx());
    expect(t).toMatchObject({ route: '/key-123', delayMs: 300 });
    expect(effect(t, 'lifecycle')).toEqual({
      kind: 'lifecycle',
      step: 'preparacion_identificacion',
      status: 'INCOMPLETED',
      description: 'Cancelado',
    });
    expect(effect(t, 'opener')).toBeUndefined();
    expect(effect(t, 'closeWindow')).toBeUndefined();
    // Issue #21: the cancelled transaction is forgotten, so Back and typed routes cannot resume it.
    expect(effect(t, 'forgetJourney')).toEqual({ kind: 'forgetJourney' });
    expect(effect(next('pdf_video_token', { type: 'cancelConfirmed' }, ctx()), 'forgetJourney')).toBeUndefined();
  });

  it('"or to /pdf_token with query uuid, idOtorgante and fecha when ruta is pdf_video_token"', () => {
    const t = next('preparacion_identificacion', { type: 'cancelConfirmed', ruta: 'pdf_video_token' }, ctx());
    expect(t?.delayMs).toBe(300);
    const url = new URL(t?.route ?? '', 'https://flow.example');
    expect(url.pathname).toBe('/pdf_token');
    expect(Object.fromEntries(url.searchParams)).toEqual({ uuid: uuidUser, idOtorgante: 'oto-9', fecha: '1800000000000' });
  });

  it('"In failures: status INCOMPLETED, type PROCESS, error_text (cancellation text \'Cancelado\')" and "cancellation also closes the popup"', () => {
    const t = next('preparacion_identificacion', { type: 'cancelConfirmed' }, popup());
    expect(effect(t, 'opener')?.message).toEqual({
      step: 'preparacion_identificacion',
      result: 'INCOMPLETED',
      status: 'INCOMPLETED',
      type: 'PROCESS',
      error_text: 'Cancelado',
      uuid: uuidUser,
    });
    expect(effect(t, 'closeWindow')).toBeDefined();
  });

  it('without a stored api key the grantor route is unknown: the cancellation lands on "/"', () => {
    expect(next('preparacion_identificacion', { type: 'cancelConfirmed' }, ctx({}, { apikey: null }))?.route).toBe('/');
  });

  it('api keys are path-encoded in the grantor route', () => {
    expect(next('preparacion_identificacion', { type: 'cancelConfirmed' }, ctx({}, { apikey: 'a/b c' }))?.route).toBe('/a%2Fb%20c');
  });
});

describe('ID capture /identificacion', () => {
  it('"a successful back read stores the data, sends an event and goes to /resultados_identificacion (state passport false) after about 0.4 s"', () => {
    const t = next('identificacion', { type: 'backRead' }, ctx());
    expect(t).toMatchObject({ route: '/resultados_identificacion', delayMs: 400, state: { passport: false } });
    expect(effect(t, 'lifecycle')).toMatchObject({ step: 'identificacion', status: 'OK' });
  });

  it('"front first; a successful front read moves to the back" and "Passport skips the back."', () => {
    expect(next('identificacion', { type: 'frontRead', passport: false }, ctx())).toBeNull();
    expect(next('identificacion', { type: 'frontRead', passport: true }, ctx())).toMatchObject({
      route: '/resultados_identificacion',
      delayMs: 400,
      state: { passport: true },
    });
  });

  it('"Cancel returns to /preparacion_identificacion."', () => {
    expect(next('identificacion', { type: 'cancel' }, ctx())).toEqual({ route: '/preparacion_identificacion', delayMs: 0 });
  });

  it('/error_pantalla: "/identificacion is also reached from \'CAPTURAR NUEVAMENTE\' with state passport."', () => {
    expect(next('error_pantalla', { type: 'recapture', passport: true }, ctx())).toEqual({
      route: '/identificacion',
      delayMs: 0,
      state: { passport: true, side: 'front', retry: true },
    });
    expect(next('error_pantalla', { type: 'cancel' }, ctx())?.route).toBe('/preparacion_identificacion');
  });

  it('a failed back read comes back to the back side after the tips screen', () => {
    const failed = next('identificacion', { type: 'readFailed', side: 'back', passport: false, message: 'Por favor coloca la parte de atrás de tu identificación.' }, ctx());
    expect(failed).toEqual({
      route: '/error_pantalla',
      delayMs: 0,
      state: { side: 'back', passport: false, message: 'Por favor coloca la parte de atrás de tu identificación.' },
    });
    expect(next('error_pantalla', { type: 'recapture', passport: false, side: 'back' }, ctx())?.state).toEqual({
      passport: false,
      side: 'back',
      retry: true,
    });
  });

  it('"When front or back attempts reach the limit the \'Proceso no exitoso\' screen shows": FAIL reported, then completado true, and the lock holds (issue #21)', () => {
    const t = next('identificacion', { type: 'attemptsExhausted' }, ctx());
    expect(t).toMatchObject({ route: null, delayMs: 0 });
    expect(t?.effects).toEqual([{ kind: 'lifecycle', step: 'identificacion', status: 'FAIL', description: 'Finalizado por reintentos' }, { kind: 'markCompleted' }, { kind: 'lock' }]);
    expect(effect(next('identificacion', { type: 'attemptsExhausted' }, popup()), 'opener')?.message).toEqual({
      step: 'identificacion',
      result: 'FAIL',
      status: 'FAIL',
      type: 'PROCESS',
      error_text: 'Finalizado por reintentos',
      uuid: uuidUser,
    });
  });

  it('"ENTENDIDO back to the entry route"', () => {
    expect(next('identificacion', { type: 'acknowledgeFailure' }, ctx())).toEqual({ route: '/key-123', delayMs: 0 });
  });
});

describe('/holograma', () => {
  it('"On completion goes to /identificacion." and "time-out at 50 s then goes to /identificacion"', () => {
    expect(next('holograma', { type: 'calibrated' }, ctx())?.route).toBe('/identificacion');
    expect(next('holograma', { type: 'timedOut' }, ctx())?.route).toBe('/identificacion');
  });

  it('a browser that cannot record goes on to the ID capture without calibrating', () => {
    expect(next('holograma', { type: 'skipped' }, ctx())).toEqual({ route: '/identificacion', delayMs: 0, state: { passport: false } });
  });

  it('"CANCELAR to /preparacion_identificacion"', () => {
    expect(next('holograma', { type: 'cancel' }, ctx())?.route).toBe('/preparacion_identificacion');
  });
});

describe('Verify your information (/resultados_identificacion)', () => {
  it('"after 300 ms it goes to /clausula (DNI variant on for the INE/passport forms) or /identificacion_edit"', () => {
    expect(next('resultados_identificacion', { type: 'confirmed' }, ctx())).toMatchObject({
      route: '/identificacion_edit',
      delayMs: 300,
    });
    expect(next('resultados_identificacion', { type: 'confirmed' }, ctx({ VARIANTE_DNI: 'true' }))).toMatchObject({
      route: '/clausula',
      delayMs: 300,
    });
  });

  it("\"From the ID-capture side, /clausula is chosen when ENABLE_CONSENTIMIENTO_2 is 'true' (default true), else /autorizacion_solicitud when ENABLE_CONSENTIMIENTO_3 is 'true', else /video_token.\"", () => {
    const dni = { VARIANTE_DNI: 'true' };
    const route = (params: Record<string, string>) => next('resultados_identificacion', { type: 'confirmed' }, ctx({ ...dni, ...params }))?.route;
    expect(route({})).toBe('/clausula');
    expect(route({ ENABLE_CONSENTIMIENTO_2: 'false' })).toBe('/autorizacion_solicitud');
    expect(route({ ENABLE_CONSENTIMIENTO_2: 'false', ENABLE_CONSENTIMIENTO_3: 'false' })).toBe('/video_token');
  });

  it('"CAPTURAR NUEVAMENTE restarts capture."', () => {
    expect(next('resultados_identificacion', { type: 'recapture', passport: false }, ctx())).toEqual({
      route: '/identificacion',
      delayMs: 0,
      state: { passport: false },
    });
  });

  it('"TERMINAR records cancellation with reason \'Fecha de vigencia no válida\' and goes to the grantor route unless opened from another window."', () => {
    const t = next('resultados_identificacion', { type: 'terminate' }, ctx());
    expect(t?.route).toBe('/key-123');
    expect(effect(t, 'lifecycle')).toMatchObject({ status: 'INCOMPLETED', description: 'Fecha de vigencia no válida' });
    expect(effect(t, 'closeWindow')).toBeUndefined();
    const inPopup = next('resultados_identificacion', { type: 'terminate' }, popup());
    expect(effect(inPopup, 'closeWindow')).toBeDefined();
    expect(effect(inPopup, 'opener')?.message.error_text).toBe('Fecha de vigencia no válida');
  });
});

describe('Address confirmation (datos_direccion_ocr_page)', () => {
  it("\"Then /clausula if ENABLE_CONSENTIMIENTO_2 is 'true' (default 'true'), else /autorizacion_solicitud if ENABLE_CONSENTIMIENTO_3 is 'true' (default 'true'), else /finalizado.\" — the face video comes first (docs/decisions.md)", () => {
    const route = (params: Record<string, string>) => next('datos_direccion_ocr_page', { type: 'saved' }, ctx(params));
    expect(route({})).toMatchObject({ route: '/clausula', delayMs: 300 });
    expect(route({ ENABLE_CONSENTIMIENTO_2: 'false' })?.route).toBe('/autorizacion_solicitud');
    expect(route({ ENABLE_CONSENTIMIENTO_2: 'false', ENABLE_CONSENTIMIENTO_3: 'false' })?.route).toBe('/video_token');
  });
});

const acceptance = { version: '1', sha256: 'a'.repeat(64), userAgent: 'test' };

describe('Clause and authorization', () => {
  it('"Clause accept goes to /autorizacion_solicitud when ENABLE_CONSENTIMIENTO_3 is true (default), else /video_token."', () => {
    const t = next('validacion_documento', { type: 'accept', acceptance }, ctx());
    expect(t).toMatchObject({ route: '/autorizacion_solicitud', delayMs: 1000 });
    expect(effect(t, 'userDatum')).toMatchObject({ description: 'req_elec_acepted', value: 'true' });
    expect(next('validacion_documento', { type: 'accept', acceptance }, ctx({ ENABLE_CONSENTIMIENTO_3: 'false' }))?.route).toBe('/video_token');
  });

  it('"The clause page skips to authorization if REQ_MEDIOS_ELECTRONICOS is FALSO."', () => {
    expect(next('clausula', { type: 'enter' }, ctx({ REQ_MEDIOS_ELECTRONICOS: 'FALSO' }))).toEqual({
      route: '/autorizacion_solicitud',
      delayMs: 0,
      replace: true,
    });
    expect(next('clausula', { type: 'enter' }, ctx())).toBeNull();
  });

  it('"/clausula (clause intro) and /autorizacion_solicitud (authorization intro) have LEER DOCUMENTO" leading to "/validacion_documento and /autorizacion_documento"', () => {
    expect(next('clausula', { type: 'read' }, ctx())?.route).toBe('/validacion_documento');
    expect(next('autorizacion_solicitud', { type: 'read' }, ctx())?.route).toBe('/autorizacion_documento');
  });

  it('"CANCELAR plus a cancel modal": SI returns to the grantor route after 300 ms', () => {
    for (const step of ['clausula', 'autorizacion_solicitud'] as const) {
      const t = next(step, { type: 'cancelConfirmed' }, ctx());
      expect(t).toMatchObject({ route: '/key-123', delayMs: 300 });
      expect(effect(t, 'lifecycle')).toMatchObject({ step, status: 'INCOMPLETED' });
    }
  });

  it('"Authorization accept goes to /finalizado after 1 s." — to the face video first, per the main sequence', () => {
    const t = next('autorizacion_documento', { type: 'accept', acceptance }, ctx());
    expect(t).toMatchObject({ route: '/video_token', delayMs: 1000 });
    expect(effect(t, 'userDatum')).toMatchObject({ description: 'request_report_acepted', value: 'true' });
  });

  it('each acceptance is recorded like /terminos: an audit event whose dato holds version, SHA-256 and user agent', () => {
    const clause = effect(next('validacion_documento', { type: 'accept', acceptance }, ctx()), 'audit');
    expect(clause).toMatchObject({ paso: 'clausula', tipo: 'Aceptación' });
    expect(JSON.parse(clause!.dato)).toEqual(acceptance);
    const authorization = effect(next('autorizacion_documento', { type: 'accept', acceptance }, ctx()), 'audit');
    expect(authorization).toMatchObject({ paso: 'autorizacion', tipo: 'Aceptación' });
  });

  it("the attempt-limit overlay's ENTENDIDO returns to the grantor route", () => {
    for (const step of ['validacion_documento', 'autorizacion_documento'] as const) {
      expect(next(step, { type: 'acknowledgeLockout' }, ctx())).toEqual({ route: '/key-123', delayMs: 0 });
    }
  });
});

describe('Face video token', () => {
  it('"On match: /finalizado or /consulta_historial (after 0.3 s) in the main flow"', () => {
    expect(next('video_token', { type: 'matched' }, ctx())).toMatchObject({ route: '/finalizado', delayMs: 300 });
    expect(next('video_token', { type: 'matched' }, ctx({ ENABLE_CONSULTA_HISTORIAL: 'true' }))).toMatchObject({
      route: '/consulta_historial',
      delayMs: 300,
    });
  });

  it('a consumed or expired result link shows its own screen at once, before any camera step (issue #21)', () => {
    expect(next('pdf_token', { type: 'linkRefused', reason: 'consumed' }, ctx())).toMatchObject({
      route: '/pdf_token_error',
      delayMs: 0,
      replace: true,
      state: { reason: 'consumed' },
    });
    expect(next('pdf_token', { type: 'linkRefused', reason: 'expired' }, ctx())?.state).toEqual({ reason: 'expired' });
  });

  it('"/pdf_token_result in the link flow"', () => {
    expect(next('pdf_video_token', { type: 'matched' }, ctx())).toMatchObject({ route: '/pdf_token_result', delayMs: 300 });
  });

  it('"Cancel link in the error dialog: /cancelar_flujo/video_token."', () => {
    const t = next('video_token', { type: 'abandon' }, ctx());
    expect(t?.route).toBe('/cancelar_flujo/video_token');
    expect(effect(t, 'lifecycle')).toMatchObject({ status: 'INCOMPLETED', description: 'Cancelado' });
  });

  it('"In the video flow it posts a message to the opener with status INCOMPLETED, type PROCESS, text \'Cancelado\'."', () => {
    const t = next('video_token', { type: 'cancelConfirmed' }, popup());
    expect(effect(t, 'opener')?.message).toMatchObject({ status: 'INCOMPLETED', type: 'PROCESS', error_text: 'Cancelado' });
    expect(t?.route).toBe('/key-123');
  });

  it('"or /pdf_token after 300 ms" when the link flow\'s video is cancelled', () => {
    const t = next('pdf_video_token', { type: 'cancelConfirmed' }, ctx());
    expect(t?.delayMs).toBe(300);
    expect(t?.route).toMatch(/^\/pdf_token\?uuid=/);
  });

  it('link flow: Reiniciar once the error-modal attempts are used restarts from /pdf_token with the whole link query', () => {
    const t = next('pdf_video_token', { type: 'restartLink' }, ctx());
    expect(t).toMatchObject({ delayMs: 0 });
    expect(t?.route).toBe(`/pdf_token?uuid=${uuidUser}&idOtorgante=oto-9&fecha=1800000000000&uuidTrx=${uuidTrx}`);
    // Past fecha by now: the landing page sends it to the expired-link page.
    expect(next('pdf_token', { type: 'enter' }, ctx({}, { now: 1_900_000_000_000 }))?.route).toBe('/pdf_token_error');
  });

  it('"Browsers without MediaRecorder go to /pasos_configuracion" (recorder path)', () => {
    expect(next('video_token', { type: 'recorderUnsupported' }, ctx())).toMatchObject({ route: '/pasos_configuracion', replace: true });
    expect(next('pdf_video_token', { type: 'recorderUnsupported' }, ctx())?.route).toBe('/pasos_configuracion');
  });

  it('"Final failure screen when attempts are exhausted": FAIL reported, opener told, completado set, screen stays', () => {
    const t = next('video_token', { type: 'attemptsExhausted' }, popup());
    expect(t?.route).toBeNull();
    expect(effect(t, 'lifecycle')).toMatchObject({ step: 'video_token', status: 'FAIL', description: 'Finalizado por reintentos' });
    expect(effect(t, 'opener')?.message).toMatchObject({ status: 'FAIL', type: 'PROCESS' });
    expect(effect(t, 'markCompleted')).toBeDefined();
    expect(next('video_token', { type: 'acknowledgeFailure' }, ctx())?.route).toBe('/key-123');
    expect(next('pdf_video_token', { type: 'acknowledgeFailure' }, ctx())?.route).toMatch(/^\/pdf_token\?uuid=/);
  });
});

describe('Proof of address', () => {
  it('proof of address between the ID results and the address form when REQ_COMPROBANTE_DOMICILIO (decisions)', () => {
    expect(next('resultados_identificacion', { type: 'confirmed' }, ctx({ REQ_COMPROBANTE_DOMICILIO: 'true' }))?.route).toBe('/preparacion_comprobante');
    expect(next('resultados_identificacion', { type: 'confirmed' }, ctx())?.route).toBe('/identificacion_edit');
    const lectura = { leido: true, coincideNombre: true, vigente: true, intentosRestantes: 3 };
    expect(next('comprobante', { type: 'read', lectura }, ctx())).toMatchObject({ route: '/identificacion_edit', delayMs: 300, state: { lectura } });
    expect(next('comprobante', { type: 'cancelConfirmed' }, ctx())).toMatchObject({ route: '/key-123', delayMs: 300 });
    const exhausted = next('comprobante', { type: 'attemptsExhausted' }, ctx());
    expect(exhausted?.route).toBeNull();
    expect(exhausted?.effects).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'lifecycle', status: 'FAIL' }), { kind: 'markCompleted' }]));
    expect(next('comprobante', { type: 'cancelConfirmed', ruta: 'pdf_video_token' }, ctx())?.route).toMatch(/^\/pdf_token\?/);
    expect(next('preparacion_comprobante', { type: 'capture', ruta: 'pdf_video_token' }, ctx())).toMatchObject({ route: '/comprobante', state: { ruta: 'pdf_video_token' } });
  });

  it('"CAPTURAR goes to /comprobante."', () => {
    expect(next('preparacion_comprobante', { type: 'capture' }, ctx())?.route).toBe('/comprobante');
  });

  it('"SI returns to the entry route after 300 ms, or, for the result-link flow, to the token page with uuid, provider id and expiry."', () => {
    expect(next('preparacion_comprobante', { type: 'cancelConfirmed' }, ctx())).toMatchObject({ route: '/key-123', delayMs: 300 });
    const link = next('preparacion_comprobante', { type: 'cancelConfirmed', ruta: 'pdf_video_token' }, ctx());
    expect(link?.route).toBe(`/pdf_token?uuid=${uuidUser}&idOtorgante=oto-9&fecha=1800000000000`);
  });

  it('"ENTENDIDO back to the entry route."', () => {
    expect(next('comprobante', { type: 'acknowledge' }, ctx())?.route).toBe('/key-123');
  });
});

describe('Mobile and SMS', () => {
  it('/consulta_historial: the accepted credit-history consent is recorded like /terminos and leads to the mobile number', () => {
    const acceptance = { version: '1', sha256: 'a'.repeat(64), userAgent: 'ua' };
    const t = next('consulta_historial', { type: 'accept', acceptance }, popup());
    expect(t).toMatchObject({ route: '/validar_movil', delayMs: delays.afterCheckboxAcceptance });
    expect(effect(t, 'audit')).toEqual({ kind: 'audit', paso: 'consulta_historial', tipo: 'Aceptación', dato: JSON.stringify(acceptance) });
    expect(effect(t, 'opener')?.message).toMatchObject({ step: 'consulta_historial', result: 'OK' });
    expect(next('consulta_historial', { type: 'cancelConfirmed' }, ctx())?.route).toBe('/key-123');
  });

  it('/validar_sms without a number goes back to /validar_movil', () => {
    expect(next('validar_sms', { type: 'missingPhone' }, ctx())).toEqual({ route: '/validar_movil', delayMs: 0, replace: true });
  });

  it('/validar_movil: a sent code leads to /validar_sms with the number', () => {
    expect(next('validar_movil', { type: 'sent', phone: '5512345678' }, ctx())).toMatchObject({
      route: '/validar_sms',
      delayMs: 0,
      state: { phone: '5512345678' },
    });
  });

  it('/validar_movil: "CANCELAR confirms, then returns to the entry route."', () => {
    expect(next('validar_movil', { type: 'cancelConfirmed' }, ctx())?.route).toBe('/key-123');
  });

  it('"SMS success: ... otherwise goes to /finalizado after 200 ms."', () => {
    expect(next('validar_sms', { type: 'verified', phone: '5512345678' }, ctx())).toEqual({ route: '/finalizado', delayMs: 200 });
  });

  it('"if opened as popup, posts completed with result FAIL, data number_phone, type PROCESS, error text \'El proceso no se concluyó correctamente\', then closes after 1.5 s"', () => {
    const t = next('validar_sms', { type: 'verified', phone: '5512345678' }, popup());
    expect(t?.delayMs).toBe(1500);
    expect(effect(t, 'opener')?.message).toMatchObject({
      step: 'completed',
      result: 'FAIL',
      data: { number_phone: '5512345678' },
      type: 'PROCESS',
      error_text: 'El proceso no se concluyó correctamente',
    });
    expect(effect(t, 'closeWindow')).toBeDefined();
  });
});

describe('Result-link flow', () => {
  it('"if the current time is past fecha goes to /pdf_token_error."', () => {
    const expired = ctx({}, { fechavigencia: '1699999999999' });
    expect(next('pdf_token', { type: 'enter' }, expired)).toEqual({ route: '/pdf_token_error', delayMs: 0, replace: true });
    expect(next('pdf_token', { type: 'enter' }, ctx())).toBeNull();
  });

  it('"CONTINUAR goes to /pdf_video_token."', () => {
    expect(next('pdf_token', { type: 'continue' }, ctx())?.route).toBe('/pdf_video_token');
  });

  it('/pdf_token_result: "On failure goes to /pdf_video_token."', () => {
    expect(next('pdf_token_result', { type: 'downloadFailed' }, ctx())?.route).toBe('/pdf_video_token');
  });
});

describe('Final screens', () => {
  it('"One grantor key puts the full result in the opener message": only with RESULTADO_COMPLETO_OPENER', () => {
    const data = { flag: 'GREEN', links: { reporte: '/v1/enlace/x' } };
    const plain = next('finalizado', { type: 'sent', result: 'OK', data }, popup());
    expect(effect(plain, 'opener')?.message).not.toHaveProperty('data');
    const full = next('finalizado', { type: 'sent', result: 'OK', data }, popup({ RESULTADO_COMPLETO_OPENER: 'true' }));
    expect(effect(full, 'opener')?.message).toMatchObject({ step: 'completed', result: 'OK', data });
  });

  it('"After sending, the popup closes after 1 s and the opener is notified; otherwise goes to /{apikey} after 300 ms."', () => {
    expect(next('finalizado', { type: 'sent', result: 'OK' }, ctx())).toEqual({ route: '/key-123', delayMs: 300 });
    const t = next('finalizado', { type: 'sent', result: 'FAIL' }, popup());
    expect(t?.delayMs).toBe(1000);
    expect(effect(t, 'opener')?.message).toEqual({ step: 'completed', result: 'FAIL', uuid: uuidUser, transaccion: uuidTrx });
    expect(effect(t, 'closeWindow')).toBeDefined();
  });

  it('"otherwise, if not in a popup, CONTINUAR goes to /{apikey}."', () => {
    expect(next('finalizado', { type: 'continue' }, ctx())?.route).toBe('/key-123');
  });

  it('Lockout panel "ENTENDIDO ... navigates to the grantor page"', () => {
    expect(next('finalizado', { type: 'acknowledge' }, ctx())?.route).toBe('/key-123');
  });
});

describe('Help and cancelled screens', () => {
  it('"/ayuda/{ruta}": closing returns to /{ruta}, resuming the journey', () => {
    expect(next('ayuda', { type: 'close', ruta: 'preparacion_identificacion' }, ctx())).toEqual({
      route: '/preparacion_identificacion',
      delayMs: 0,
      state: { resume: true },
    });
    expect(next('ayuda', { type: 'close', ruta: 'key-123' }, ctx())?.route).toBe('/key-123');
  });

  it('"/cancelar_flujo/{ruta}": re-open the cancelled step or start over', () => {
    expect(next('cancelar_flujo', { type: 'reopen', ruta: 'video_token' }, ctx())?.route).toBe('/video_token');
    expect(next('cancelar_flujo', { type: 'restart' }, ctx())?.route).toBe('/key-123');
  });
});
