/**
 * One attempt at reading a side of an ID (`POST /v2/ocr`, docs/flow.md §7): the attempt is spent before the read
 * (attempts/service.ts), the image, what was read and the holder's photo are kept encrypted as evidence, and the
 * outcome says what the attempt becomes: a refused file, a busy or failing engine and a usable read give it back;
 * an unreadable capture keeps it, and the last one locks the transaction for the hour. Returns reasons; the route
 * maps them to statuses and texts.
 */
import { randomBytes } from 'node:crypto';
import { paramInt, type GrantorParam } from '@kyc/contracts';
import { runAttempt, type AttemptWork } from '../../attempts/service.js';
import { compactTimestamp } from '../../domain/evidence.js';
import { OcrImageError } from '../../engines/ocr/engine.js';
import type { IdSide, OcrResult } from '../../engines/ocr/types.js';
import type { Deps } from '../../deps.js';
import { addEvidence, latestEvidence, listEvidenceWithPayload } from '../../store/evidence.js';
import { checkContent } from '../../uploads/check-content.js';
import { ContentRejectedError } from '../../uploads/content-error.js';
import type { UploadedFile } from '../../uploads/read-multipart.js';
import { extensionOf } from '../../uploads/sniff.js';
import { recordCaseIdentity } from '../console/case-index.js';
import { idEvidenceKinds, idImageKey, idSides, judgeRead, refusedEvidenceKind, type ReadVerdict } from './id-reading.js';
import { sameCard } from './same-card.js';

export interface IdSideRequest {
  grantorId: string;
  uuidTrx: string;
  uuidUser: string;
  side: IdSide;
  file: UploadedFile;
  params: readonly GrantorParam[];
  passportHint: boolean;
  originOS?: string;
  /** The attempts counter to spend instead of the side's own (a redo link counts its attempts apart). */
  attemptStep?: string;
  now: Date;
  log: { info(fields: object, message: string): void };
}

export type IdSideResult =
  /** No attempt left: nothing was read. */
  | { kind: 'exhausted'; reason: 'exhausted' | 'in_use' }
  | { kind: 'content_rejected'; message: string }
  | { kind: 'busy' }
  | { kind: 'unreadable'; detail: string; reason: Extract<ReadVerdict, { kind: 'rejected' }>['reason']; exhausted: boolean }
  | { kind: 'read'; result: OcrResult };

type ReadDeps = Pick<Deps, 'db' | 'cipher' | 'blobs' | 'ocr'>;

export async function readIdSide(deps: ReadDeps, request: IdSideRequest): Promise<IdSideResult> {
  const rules = idSides[request.side];
  const counter = { step: request.attemptStep ?? rules.attemptStep, limit: paramInt(request.params, rules.limitParam), lockWhenRefused: true };
  const run = await runAttempt(deps.db, request.uuidTrx, counter, () => readOnce(deps, request), request.now);
  if (!run.ran) return { kind: 'exhausted', reason: run.reason };
  const value = run.value;
  return value.kind === 'unreadable' ? { ...value, exhausted: run.tally.locked } : value;
}

async function readOnce({ db, cipher, blobs, ocr }: ReadDeps, request: IdSideRequest): Promise<AttemptWork<IdSideResult>> {
  const { file, side, now } = request;
  const rules = idSides[side];
  try {
    await checkContent(file);
  } catch (error) {
    if (error instanceof ContentRejectedError) return { value: { kind: 'content_rejected', message: error.message }, effect: 'none' };
    throw error;
  }
  const key = idImageKey({
    grantorId: request.grantorId,
    uuidUser: request.uuidUser,
    uuidTrx: request.uuidTrx,
    side,
    stamp: compactTimestamp(now),
    suffix: randomBytes(4).toString('hex'),
    extension: extensionOf(file.sniffedType),
  });
  const image = await blobs.put(key, file.buffer, { contentType: file.sniffedType });
  const front = side === 'back' ? await usableFront(db, cipher, request.uuidTrx) : undefined;
  const frontData = front?.ocrData;
  let result: OcrResult | undefined;
  try {
    const read = await ocr.withSlot((engine) => engine.read({ image: file.buffer, side, passportHint: request.passportHint, frontData }));
    if (!read) {
      await blobs.delete(image.key);
      return { value: { kind: 'busy' }, effect: 'none' };
    }
    result = read;
  } catch (error) {
    if (!(error instanceof OcrImageError)) throw error;
  }
  const toleranceUsed = side === 'front' && (await latestEvidence(db, cipher, request.uuidTrx, idEvidenceKinds.toleratedFront)) !== undefined;
  let verdict: ReadVerdict = result ? judgeRead(result, { side, toleranceUsed }) : { kind: 'rejected', reason: 'not_a_document', detail: 'the image could not be decoded' };
  if (result && front && verdict.kind !== 'rejected') {
    const card = sameCard(
      { documentType: front.documentType ?? '', side: 'front', ocrData: front.ocrData ?? {} },
      { documentType: result.documentType, side: result.side, ocrData: result.ocrData, mrzLines: result.mrz?.lines },
    );
    if (!card.same) verdict = { kind: 'rejected', reason: 'not_same_card', detail: `${card.reason}: ${card.detail}` };
  }

  const base = { uuidTrx: request.uuidTrx, grantorId: request.grantorId };
  await addEvidence(db, cipher, {
    ...base,
    kind: verdict.kind === 'rejected' ? refusedEvidenceKind[side] : rules.evidenceKind,
    blobKey: image.key,
    sha256: image.sha256,
    payload: {
      verdict,
      documentType: result?.documentType,
      ocrData: result?.ocrData,
      ocrBack: result?.ocrBack,
      extra: result?.extra,
      mrz: result?.mrz,
      warnings: result?.warnings,
      confidence: result?.confidence,
      geometry: result?.geometry,
      timingsMs: result?.timingsMs,
      originOS: request.originOS,
    },
  });
  request.log.info({ grantorId: request.grantorId, uuidTrx: request.uuidTrx, side, verdict: verdict.kind, documentType: result?.documentType, warnings: result?.warnings }, 'ID side read');
  if (verdict.kind === 'rejected' || !result) {
    const rejected = verdict.kind === 'rejected' ? verdict : ({ reason: 'not_a_document', detail: 'unreadable image' } as const);
    return { value: { kind: 'unreadable', detail: rejected.detail, reason: rejected.reason, exhausted: false }, effect: 'count' };
  }
  if (request.side === 'front') {
    // The review console lists and finds the case by the holder's name and CURP (blind index, never in clear).
    const read = (result.ocrData ?? {}) as Record<string, unknown>;
    const text = (key: string) => (typeof read[key] === 'string' ? (read[key] as string) : undefined);
    await recordCaseIdentity(db, cipher, { ...base, name: text('nombreCompleto'), curp: text('curp') });
  }
  if (verdict.kind === 'tolerated') await addEvidence(db, cipher, { ...base, kind: idEvidenceKinds.toleratedFront, payload: { reason: verdict.reason } });
  if (result.faceCrop) {
    const photo = await blobs.put(`${request.grantorId}/${request.uuidUser}/identificacion/${request.uuidTrx}-rostro-${compactTimestamp(now)}.png`, result.faceCrop, { contentType: 'image/png' });
    await addEvidence(db, cipher, { ...base, kind: idEvidenceKinds.holderPhoto, blobKey: photo.key, sha256: photo.sha256 });
  }
  return { value: { kind: 'read', result }, effect: 'none' };
}

interface FrontRead {
  verdict?: ReadVerdict;
  documentType?: string;
  ocrData?: Record<string, string | boolean>;
}

/** The last front read that was not refused: the card every back is held against. */
async function usableFront(db: ReadDeps['db'], cipher: ReadDeps['cipher'], uuidTrx: string): Promise<FrontRead | undefined> {
  const reads = await listEvidenceWithPayload(db, cipher, uuidTrx, idSides.front.evidenceKind);
  return reads
    .map((r) => r.payload as FrontRead | undefined)
    .filter((p) => p && p.verdict?.kind !== 'rejected')
    .at(-1);
}
