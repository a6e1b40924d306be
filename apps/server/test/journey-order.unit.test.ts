import { grantorParamDefaults, type GrantorParam } from '@kyc/contracts';
import { describe, expect, it } from 'vitest';
import { missingStep, requiredSteps, stepsFor, type JourneyStep } from '../src/domain/journey-order.js';

const defaults: GrantorParam[] = Object.entries(grantorParamDefaults).map(([idCampo, valor]) => ({ idCampo, valor }));
const withParams = (values: Record<string, string>): GrantorParam[] => [...Object.entries(values).map(([idCampo, valor]) => ({ idCampo, valor })), ...defaults];
const recorded = (...steps: JourneyStep[]) => new Set(steps);

describe('the journey order (domain/journey-order.ts)', () => {
  it('asks for consent before any capture', () => {
    for (const call of ['idFront', 'idBack', 'hologram', 'identityCheck', 'proof', 'faceVideo'] as const) {
      expect(missingStep(call, recorded(), defaults), call).toBe('terminos');
    }
  });

  it('asks for the ID front before its back, the checks and the proof; the consents before the face video; the video before the result', () => {
    expect(missingStep('idBack', recorded('terminos'), defaults)).toBe('idFront');
    expect(missingStep('proof', recorded('terminos'), defaults)).toBe('idFront');
    expect(missingStep('proof', recorded('terminos', 'idFront'), defaults)).toBeNull();
    expect(missingStep('faceVideo', recorded('terminos', 'idFront'), defaults)).toBe('clausula');
    expect(missingStep('faceVideo', recorded('terminos', 'idFront', 'clausula'), defaults)).toBe('autorizacion');
    expect(missingStep('faceVideo', recorded('terminos', 'idFront', 'clausula', 'autorizacion'), defaults)).toBeNull();
    expect(missingStep('result', recorded('terminos', 'idFront', 'clausula', 'autorizacion'), defaults)).toBe('faceVideo');
    expect(missingStep('result', recorded('faceVideo'), defaults)).toBeNull();
  });

  it('leaves out a consent the grantor switched off (docs/flow.md §2)', () => {
    expect(stepsFor('idFront', withParams({ ENABLE_CONSENTIMIENTO_1: 'false' }))).toEqual([]);
    expect(stepsFor('idFront', withParams({ REQ_ACEPTACION_DE_DATOS: 'FALSO' }))).toEqual([]);
    expect(stepsFor('faceVideo', withParams({ REQ_MEDIOS_ELECTRONICOS: 'FALSO' }))).toEqual(['terminos', 'idFront', 'autorizacion']);
    expect(stepsFor('faceVideo', withParams({ ENABLE_CONSENTIMIENTO_2: 'false', ENABLE_CONSENTIMIENTO_3: 'false' }))).toEqual(['terminos', 'idFront']);
  });

  it('lists every step a call needs in the journey order', () => {
    const order: JourneyStep[] = ['terminos', 'idFront', 'clausula', 'autorizacion', 'faceVideo'];
    for (const [call, steps] of Object.entries(requiredSteps)) {
      expect(
        [...steps].sort((a, b) => order.indexOf(a) - order.indexOf(b)),
        call,
      ).toEqual(steps);
    }
  });
});
