import type { ConsoleRedoStep } from '@kyc/contracts';
import type { DataCipher } from '../../crypto/data-cipher.js';
import { evidenceKind } from '../../domain/evidence-kinds.js';
import { RefusedError } from '../../domain/refusal.js';
import type { Db } from '../../store/db.js';
import { listEvidenceWithPayload } from '../../store/evidence.js';
import type { OpenRedo } from './links.js';

type Payload = { verdict?: { kind?: string }; outcome?: string } | undefined;
/** A capture the redo may count: a side or proof not rejected; a face video only when it matched (a live face of the holder). */
const usable = (kind: string, payload: Payload) => (kind === evidenceKind.videoToken ? payload?.outcome === 'match' : payload?.verdict?.kind !== 'rejected');

/** The evidence kinds that make each step done: for the ID both sides read usably (one card), for the proof the file, for the face a match. */
const doneKinds: Record<ConsoleRedoStep, readonly string[]> = {
  id: [evidenceKind.idFront, evidenceKind.idBack],
  proof: [evidenceKind.proofOfAddress],
  face: [evidenceKind.videoToken],
};

/** Each redo counts its attempts apart from the journey's (which may be used up): `redo:<id>:<counter>`. */
export const redoAttemptStep = (redo: OpenRedo, counter: string) => `redo:${redo.redoId}:${counter}`;

/** A link opens one step only: any other capture through it is refused (403). */
export function assertRedoStep(redo: OpenRedo, step: ConsoleRedoStep): void {
  if (redo.step !== step) throw new RefusedError('redo_other_step', `This redo link allows the step '${redo.step}' only, not '${step}'`);
}

/** Whether the step was captured again, usably, through this redo (evidence recorded since it was asked). */
export async function redoneSince(db: Db, cipher: DataCipher, redo: OpenRedo): Promise<boolean> {
  for (const kind of doneKinds[redo.step]) {
    const records = await listEvidenceWithPayload(db, cipher, redo.uuidTrx, kind);
    if (!records.some((r) => r.createdAt >= redo.createdAt && usable(kind, r.payload as Payload))) return false;
  }
  return true;
}
