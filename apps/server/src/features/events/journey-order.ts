import { journeyOrderTexts, type TrxHeaders } from '@kyc/contracts';
import { ownerParams } from '../../domain/grantor-params.js';
import { evidenceKind, type ConsentAcceptance } from '../../domain/evidence-kinds.js';
import { missingStep, stepsFor, type JourneyStep, type OrderedCall } from '../../domain/journey-order.js';
import { normalizeId } from '../../domain/transactions.js';
import { authorizeTransaction, requireGrantor } from '../../http/auth.js';
import type { Deps } from '../../deps.js';
import { RefusedError } from '../../domain/refusal.js';
import type { Db } from '../../store/db.js';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { listEvidence, listEvidenceWithPayload } from '../../store/evidence.js';
import { readStoredParams, type Grantor } from '../../store/grantors.js';
import { findTransaction } from '../../store/transactions.js';
import { assertTransactionOpen } from '../results/outcomes.js';

/** The 409 of a call whose step `due` is not recorded: nothing was read nor stored. */
export function outOfOrder(due: JourneyStep): RefusedError {
  return new RefusedError('journey_out_of_order', `Out of order: step '${due}' must be recorded for this transaction before this call; nothing was stored`, journeyOrderTexts[due]);
}

/** Which of `steps` are recorded for the transaction (consents as consent evidence, the ID front as a usable read). */
export async function recordedSteps(db: Db, cipher: DataCipher, uuidTrx: string, steps: readonly JourneyStep[]): Promise<Set<JourneyStep>> {
  const recorded = new Set<JourneyStep>();
  const kinds = new Set((await listEvidence(db, uuidTrx)).map((e) => e.kind));
  if (steps.some((s) => s === 'terminos' || s === 'clausula' || s === 'autorizacion') && kinds.has(evidenceKind.consent)) {
    for (const record of await listEvidenceWithPayload(db, cipher, uuidTrx, evidenceKind.consent)) {
      recorded.add((record.payload as ConsentAcceptance).consent as JourneyStep);
    }
  }
  if (steps.includes('idFront') && kinds.has(evidenceKind.idFront)) {
    // A refused read is evidence too (docs/flow.md §8), but it does not complete the step.
    const reads = await listEvidenceWithPayload(db, cipher, uuidTrx, evidenceKind.idFront);
    if (reads.some((r) => (r.payload as { verdict?: { kind?: string } }).verdict?.kind !== 'rejected')) recorded.add('idFront');
  }
  if (kinds.has(evidenceKind.videoToken)) recorded.add('faceVideo');
  return recorded;
}

/**
 * authorizeTransaction for a call of the journey's order (domain/journey-order.ts): 401/403 as usual, 409/429 for a
 * capture on a finished, cancelled or locked transaction (nothing read), then 409 with the due step's text when a step the call depends on is not recorded. A transaction that does not exist yet has
 * recorded nothing, so it is refused without being created when the call needs any step.
 */
export async function authorizeInOrder(deps: Pick<Deps, 'db' | 'cipher' | 'caches'>, headers: TrxHeaders, call: OrderedCall) {
  const { db, cipher } = deps;
  const grantor = await requireGrantor(deps, headers.apikey);
  const params = ownerParams(grantor, await readStoredParams(deps, grantor.id), headers.apikey);
  const needed = stepsFor(call, params);
  if (needed.length > 0 && !(await findTransaction(db, normalizeId(headers.transaccion)))) throw outOfOrder(needed[0]!);
  const authorized = await authorizeTransaction(deps, headers);
  // A capture changes the transaction: not once it is finished, cancelled or locked. The result's documents are read
  // after the end, so they only need the face video (the e-mail checks openness itself).
  if (call !== 'result') await assertTransactionOpen(db, authorized.transaction.uuidTrx);
  await assertInOrder(deps, authorized.transaction.uuidTrx, call, params);
  return { ...authorized, params };
}

/** The order check alone, for callers that authorised the transaction another way (the real-time start message). */
export async function assertInOrder(deps: Pick<Deps, 'db' | 'cipher'>, uuidTrx: string, call: OrderedCall, params: Parameters<typeof stepsFor>[1]): Promise<void> {
  const needed = stepsFor(call, params);
  if (needed.length === 0) return;
  const due = missingStep(call, await recordedSteps(deps.db, deps.cipher, uuidTrx, needed), params);
  if (due) throw outOfOrder(due);
}

/** The order check for a grantor already authorised (the real-time start message, after its transaction check). */
export async function assertGrantorInOrder(deps: Pick<Deps, 'db' | 'cipher' | 'caches'>, grantor: Grantor, apiKey: string, uuidTrx: string, call: OrderedCall): Promise<void> {
  await assertInOrder(deps, uuidTrx, call, ownerParams(grantor, await readStoredParams(deps, grantor.id), apiKey));
}
