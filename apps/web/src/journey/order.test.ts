import { describe, expect, it } from 'vitest';
import { createStateStorage } from '../session/storage';
import { setUserDatum } from '../session/userData';
import { forgetJourney, journeyFacts } from './facts';
import { dueRoute, type JourneyFacts } from './order';

const nothing: JourneyFacts = { started: false, terminos: false, clausula: false, autorizacion: false, id: false, face: false, apikey: 'demo', params: null };
const started = { ...nothing, started: true };

describe('the journey order in the browser (journey/order.ts)', () => {
  it('sends a capture reached without consent to /terminos, and without a transaction to the entry route', () => {
    expect(dueRoute('preparacion_identificacion', started)).toBe('/terminos');
    expect(dueRoute('identificacion', started)).toBe('/terminos');
    expect(dueRoute('preparacion_identificacion', nothing)).toBe('/demo');
    expect(dueRoute('clausula', { ...nothing, apikey: null })).toBe('/');
  });

  it('asks for the ID before the results, the address, the proof and the clause; the clause before the authorization; both before the face video', () => {
    const consented = { ...started, terminos: true };
    for (const step of ['resultados_identificacion', 'datos_direccion_ocr_page', 'preparacion_comprobante', 'comprobante', 'clausula', 'validacion_documento']) {
      expect(dueRoute(step, consented), step).toBe('/preparacion_identificacion');
    }
    const read = { ...consented, id: true };
    expect(dueRoute('clausula', read)).toBeNull();
    expect(dueRoute('autorizacion_solicitud', read)).toBe('/clausula');
    expect(dueRoute('video_token', { ...read, clausula: true })).toBe('/autorizacion_solicitud');
    expect(dueRoute('video_token', { ...read, clausula: true, autorizacion: true })).toBeNull();
  });

  it('asks for the face video before the result and the credit-history consent', () => {
    const beforeFace = { ...started, terminos: true, id: true, clausula: true, autorizacion: true };
    for (const step of ['finalizado', 'consulta_historial', 'validar_movil', 'validar_sms']) {
      expect(dueRoute(step, beforeFace), step).toBe('/video_token');
      expect(dueRoute(step, { ...beforeFace, face: true }), step).toBeNull();
    }
    expect(dueRoute('finalizado', { ...started, face: true })).toBe('/terminos');
  });

  it('skips the consents the grantor switched off, and leaves the entry, the link flow and help open', () => {
    const params = [
      { idCampo: 'REQ_ACEPTACION_DE_DATOS', valor: 'FALSO' },
      { idCampo: 'ENABLE_CONSENTIMIENTO_2', valor: 'false' },
    ];
    expect(dueRoute('identificacion', { ...started, params })).toBeNull();
    expect(dueRoute('video_token', { ...started, id: true, autorizacion: true, params })).toBeNull();
    for (const step of ['inicio', 'pdf_token', 'pdf_video_token', 'pdf_token_error', 'ayuda', 'cancelar_flujo', 'pivote']) expect(dueRoute(step, nothing), step).toBeNull();
  });

  it('a cancelled journey is forgotten: its consents and reads no longer open a step', () => {
    const storage = createStateStorage(null);
    storage.set('apikeyOtorgante', 'demo');
    storage.set('uuidUser', '3f0e4c2a-1b2c-4d5e-8f90-1234567890ab');
    storage.set('uuidTrx', '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d');
    setUserDatum(storage, 'terms_acepted', 'true');
    storage.set('ocrFront', '{"nombreCompleto":"ANA"}');
    storage.set('bloqueo', 'true');
    expect(dueRoute('clausula', journeyFacts(storage))).toBeNull();
    forgetJourney(storage);
    expect(dueRoute('clausula', journeyFacts(storage))).toBe('/demo');
    expect(dueRoute('preparacion_identificacion', journeyFacts(storage))).toBe('/demo');
    expect(storage.get('bloqueo')).toBe('true');
    expect(storage.get('uuidUser')).not.toBeNull();
  });
});
