/**
 * The journey's order as the server holds it (docs/flow.md §4 "Main sequence"; docs/decisions.md "The server holds
 * the journey's order"): each capture or document call names the steps that must be recorded for the transaction
 * before it. One table, one check (features/events/journey-order.ts) used by every such route; pure here.
 */
import { consentAsked, type GrantorParam } from '@kyc/contracts';

/** Steps whose record a later call depends on. */
export type JourneyStep = 'terminos' | 'idFront' | 'clausula' | 'autorizacion' | 'faceVideo';

/** The calls that capture or produce documents, by what they do. */
export type OrderedCall = 'idFront' | 'idBack' | 'hologram' | 'identityCheck' | 'proof' | 'faceVideo' | 'result';

/**
 * call → steps recorded before it, in the journey's order. Consent before any capture; the ID front before its
 * back and the proof of address; the consents before the face video; the face video before
 * the result. A consent the grantor switched off is left out (consentAsked, the rule the flow follows too).
 */
export const requiredSteps: Readonly<Record<OrderedCall, readonly JourneyStep[]>> = {
  idFront: ['terminos'],
  hologram: ['terminos'],
  idBack: ['terminos', 'idFront'],
  // The CURP/INE checks compare with the reads when there are any, and check the data's own rules otherwise.
  identityCheck: ['terminos'],
  proof: ['terminos', 'idFront'],
  faceVideo: ['terminos', 'idFront', 'clausula', 'autorizacion'],
  result: ['faceVideo'],
};

/** The steps `call` needs for this grantor, in order. */
export function stepsFor(call: OrderedCall, params: readonly GrantorParam[]): JourneyStep[] {
  return requiredSteps[call].filter((step) => step === 'idFront' || step === 'faceVideo' || consentAsked(step, params));
}

/** The first step `call` needs that is not recorded (the one that is due), or null when the call may run. */
export function missingStep(call: OrderedCall, recorded: ReadonlySet<JourneyStep>, params: readonly GrantorParam[]): JourneyStep | null {
  return stepsFor(call, params).find((step) => !recorded.has(step)) ?? null;
}
