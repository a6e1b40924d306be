/**
 * One proof of address (`POST /v1/file`, docs/flow.md §7): one attempt of the `comprobante` counter (INTENTOS_ID_FRONTAL,
 * docs/flow.md §2) is spent before the work (attempts/service.ts); the file is stored encrypted and recorded as evidence
 * (neither kept when either fails), then read and the reading recorded (`comprobante_lectura`). An unreadable
 * proof keeps the attempt (the last one locks the transaction for the hour); a refused file, a read, a PDF (not
 * read) or a busy or failing engine give it back. Returns reasons; the route maps them.
 */
import { randomBytes } from 'node:crypto';
import { paramInt, type GrantorParam } from '@kyc/contracts';
import { checkOpen, runAttempt, type AttemptWork, type OpenCheck } from '../../attempts/service.js';
import { attemptSteps, type AttemptCounter } from '../../domain/attempts.js';
import { evidenceKinds, proofOfAddressKey } from '../../domain/evidence.js';
import { evidenceKind, type ProofReading } from '../../domain/evidence-kinds.js';
import type { Deps } from '../../deps.js';
import { addEvidence } from '../../store/evidence.js';
import { checkContent } from '../../uploads/check-content.js';
import { ContentRejectedError } from '../../uploads/content-error.js';
import type { UploadedFile } from '../../uploads/read-multipart.js';
import { extensionOf } from '../../uploads/sniff.js';
import { idHolderName, readProof } from './proof-reading-wire.js';

type ProofDeps = Pick<Deps, 'db' | 'cipher' | 'blobs' | 'ocr'>;

export interface ProofRequest {
  grantorId: string;
  uuidTrx: string;
  uuidUser: string;
  file: UploadedFile;
  params: readonly GrantorParam[];
  /** The attempts counter to spend instead of the proof's own (a redo link counts its attempts apart). */
  attemptStep?: string;
  now: Date;
  log: { info(fields: object, message: string): void; error(fields: object, message: string): void };
}

export interface StoredProof {
  key: string;
  sha256: string;
  size: number;
  reading: ProofReading;
}

export type ProofResult = { kind: 'exhausted'; reason: 'exhausted' | 'in_use' } | { kind: 'content_rejected'; message: string } | { kind: 'stored'; proof: StoredProof; attemptsLeft: number };

/** The proof's counter: a refusal once the attempts are used does not lock again (only the last failure locks). */
export function proofCounter(params: readonly GrantorParam[], step: string = attemptSteps.proof.step): AttemptCounter {
  return { step, limit: paramInt(params, attemptSteps.proof.limitParam), lockWhenRefused: false };
}

/** Before the upload is read: locked, attempts used up, or open. */
export function checkProofOpen(db: ProofDeps['db'], uuidTrx: string, params: readonly GrantorParam[], now: Date): Promise<OpenCheck> {
  return checkOpen(db, uuidTrx, now, proofCounter(params));
}

export async function storeProof(deps: ProofDeps, request: ProofRequest): Promise<ProofResult> {
  const run = await runAttempt(deps.db, request.uuidTrx, proofCounter(request.params, request.attemptStep), () => storeOnce(deps, request), request.now);
  if (!run.ran) return { kind: 'exhausted', reason: run.reason };
  if (run.value.kind === 'content_rejected') return run.value;
  const { reading } = run.value.proof;
  request.log.info(
    { uuidTrx: request.uuidTrx, outcome: reading.outcome, read: reading.read, nameMatchesId: reading.nameMatchesId, recent: reading.recent, attemptsLeft: run.tally.left },
    'proof of address read',
  );
  return { kind: 'stored', proof: run.value.proof, attemptsLeft: run.tally.left };
}

type Stored = { kind: 'content_rejected'; message: string } | { kind: 'stored'; proof: StoredProof };

async function storeOnce({ db, cipher, blobs, ocr }: ProofDeps, request: ProofRequest): Promise<AttemptWork<Stored>> {
  const { file, now } = request;
  let content;
  try {
    content = await checkContent(file);
  } catch (error) {
    if (error instanceof ContentRejectedError) return { value: { kind: 'content_rejected', message: error.message }, effect: 'none' };
    throw error;
  }
  const key = proofOfAddressKey({
    grantorId: request.grantorId,
    uuidUser: request.uuidUser,
    uuidTrx: request.uuidTrx,
    at: now,
    suffix: randomBytes(4).toString('hex'),
    extension: extensionOf(file.sniffedType),
  });
  const stored = await blobs.put(key, file.buffer, { contentType: file.sniffedType });
  let evidenceId: string;
  try {
    const evidence = {
      uuidTrx: request.uuidTrx,
      grantorId: request.grantorId,
      kind: evidenceKinds.proofOfAddress,
      blobKey: stored.key,
      sha256: stored.sha256,
      payload: { contentType: file.sniffedType, size: stored.size, ...content },
    };
    evidenceId = await addEvidence(db, cipher, evidence, now);
  } catch (error) {
    await blobs.delete(stored.key).catch((err: unknown) => request.log.error({ err, blobKey: stored.key }, 'could not remove an unrecorded blob'));
    throw error;
  }
  request.log.info({ grantorId: request.grantorId, uuidTrx: request.uuidTrx, evidenceId, type: file.sniffedType, size: stored.size }, 'proof of address stored');
  const reading = await readProof(ocr, {
    image: file.buffer,
    contentType: file.sniffedType,
    params: request.params,
    idName: await idHolderName(db, cipher, request.uuidTrx),
    now,
  });
  await addEvidence(db, cipher, { uuidTrx: request.uuidTrx, grantorId: request.grantorId, kind: evidenceKind.proofReading, blobKey: stored.key, payload: reading });
  // Spec §2: an unreadable proof uses an attempt; a PDF is not read and a busy engine is the server's.
  const counts = reading.read !== true && reading.detail !== 'engine_busy' && reading.detail !== 'pdf_not_read';
  return { value: { kind: 'stored', proof: { key: stored.key, sha256: stored.sha256, size: stored.size, reading } }, effect: counts ? 'count' : 'none' };
}
