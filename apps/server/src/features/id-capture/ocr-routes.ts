import { randomBytes } from 'node:crypto';
import { calls, errorTexts, paramInt } from '@kyc/contracts';
import { compactTimestamp } from '../../domain/evidence.js';
import { idEvidenceKinds, idImageKey, idSides, judgeRead } from './id-reading.js';
import { isLocked, lockUntilAfter, normalizeId } from '../../domain/transactions.js';
import { ownerParams } from '../../domain/grantor-params.js';
import { OcrImageError } from '../../engines/ocr/engine.js';
import type { IdSide } from '../../engines/ocr/types.js';
import { addEvidence, latestEvidence } from '../../store/evidence.js';
import { readStoredParams } from '../../store/grantors.js';
import { findTransaction, incrementAttempt, readAttempts, setLockUntil } from '../../store/transactions.js';
import { checkContent } from '../../uploads/check-content.js';
import { ContentRejectedError } from '../../uploads/content-error.js';
import { uploadLimits } from '../../uploads/limits.js';
import { multipartRouteSchema } from '../../uploads/plugin.js';
import { readUpload } from '../../uploads/read-multipart.js';
import { extensionOf } from '../../uploads/sniff.js';
import { assertTransactionOpen } from '../results/outcomes.js';
import { recordCaseIdentity } from '../console/case-index.js';
import { authorizeTransaction } from '../../http/auth.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';

const sideAliases: Record<string, IdSide> = { front: 'front', frente: 'front', back: 'back', reverso: 'back' };
const failureText: Record<IdSide, string> = { front: errorTexts.idFrontFailed, back: errorTexts.idBackFailed };

function parseSide(value: string | undefined): IdSide {
  const side = sideAliases[(value ?? '').trim().toLowerCase()];
  if (!side) throw new HttpError(400, "Invalid request: multipart field side must be 'front' or 'back'");
  return side;
}

/**
 * `POST /v2/ocr` (calls.ocr, spec §7): reads one side of an ID. The server counts the attempts
 * (INTENTOS_ID_FRONTAL / INTENTOS_ID_REVERSO) and locks the transaction for an hour when they run out; the image,
 * what was read and the holder's photo are kept encrypted as evidence.
 */
export function registerOcrRoutes(app: ZodApp, { config, db, cipher, blobs, ocr }: Deps): void {
  const call = calls.ocr;
  const limits = uploadLimits(config);
  app.route({
    method: call.method,
    url: call.path,
    schema: multipartRouteSchema(call, 'identification'),
    handler: async (request, reply) => {
      const { grantor, transaction } = await authorizeTransaction(db, request.headers);
      await assertTransactionOpen(db, transaction.uuidTrx);
      const params = ownerParams(grantor, await readStoredParams(db, grantor.id), request.headers.apikey);
      const stored = await findTransaction(db, transaction.uuidTrx);
      const now = new Date();
      if (isLocked(stored?.lockUntil ?? null, now)) throw new HttpError(429, 'Attempts exhausted: the transaction is locked', errorTexts.attemptsExceeded);

      const { fields, file } = await readUpload(request, call.multipart, { limits, retryMessage: errorTexts.idUnreadable });
      if (normalizeId(fields.uuidUser ?? '') !== transaction.uuidUser) {
        throw new HttpError(400, 'Invalid request: multipart field uuidUser must equal the cliente header');
      }
      const side = parseSide(fields.side);
      const rules = idSides[side];
      const limit = paramInt(params, rules.limitParam);
      const used = (await readAttempts(db, transaction.uuidTrx))[rules.attemptStep] ?? 0;
      if (used >= limit) {
        await setLockUntil(db, transaction.uuidTrx, lockUntilAfter(now));
        throw new HttpError(429, 'Attempts exhausted', errorTexts.attemptsExceeded);
      }
      try {
        await checkContent(file);
      } catch (error) {
        if (error instanceof ContentRejectedError) throw new HttpError(400, error.message, failureText[side]);
        throw error;
      }

      const key = idImageKey({
        grantorId: grantor.id,
        uuidUser: transaction.uuidUser,
        uuidTrx: transaction.uuidTrx,
        side,
        stamp: compactTimestamp(now),
        suffix: randomBytes(4).toString('hex'),
        extension: extensionOf(file.sniffedType),
      });
      const image = await blobs.put(key, file.buffer, { contentType: file.sniffedType });
      const front = side === 'back' ? await latestEvidence(db, cipher, transaction.uuidTrx, idSides.front.evidenceKind) : undefined;
      const frontData = (front?.payload as { ocrData?: Record<string, string | boolean> } | undefined)?.ocrData;
      let result;
      try {
        const read = await ocr.withSlot((engine) => engine.read({ image: file.buffer, side, passportHint: fields.passport === 'true', frontData }));
        if (!read) {
          await blobs.delete(image.key);
          throw new HttpError(503, 'Busy: too many documents are being read; try again', errorTexts.serviceUnavailable);
        }
        result = read;
      } catch (error) {
        if (!(error instanceof OcrImageError)) throw error;
        result = undefined;
      }
      const toleranceUsed = side === 'front' && (await latestEvidence(db, cipher, transaction.uuidTrx, idEvidenceKinds.toleratedFront)) !== undefined;
      const verdict = result
        ? judgeRead(result, { side, toleranceUsed })
        : ({ kind: 'rejected', reason: 'not_a_document', detail: 'the image could not be decoded' } as const);

      const base = { uuidTrx: transaction.uuidTrx, grantorId: grantor.id };
      await addEvidence(db, cipher, {
        ...base,
        kind: rules.evidenceKind,
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
          geometry: result?.geometry,
          timingsMs: result?.timingsMs,
          originOS: fields.originOS,
        },
      });
      request.log.info(
        { grantorId: grantor.id, uuidTrx: transaction.uuidTrx, side, verdict: verdict.kind, documentType: result?.documentType, warnings: result?.warnings },
        'ID side read',
      );

      if (verdict.kind === 'rejected' || !result) {
        const count = await incrementAttempt(db, transaction.uuidTrx, rules.attemptStep);
        if (count >= limit) {
          await setLockUntil(db, transaction.uuidTrx, lockUntilAfter(now));
          throw new HttpError(429, `Attempts exhausted after: ${verdict.kind === 'rejected' ? verdict.detail : 'unreadable image'}`, errorTexts.attemptsExceeded);
        }
        const unreadable = verdict.kind === 'rejected' && (verdict.reason === 'incomplete' || verdict.reason === 'mrz_invalid');
        const text = unreadable ? errorTexts.idUnreadable : failureText[side];
        throw new HttpError(422, `Unreadable ${side}: ${verdict.kind === 'rejected' ? verdict.detail : 'unreadable image'}`, text);
      }
      if (side === 'front') {
        // The review console lists and finds the case by the holder's name and CURP (blind index, never in clear).
        const read = (result.ocrData ?? {}) as Record<string, unknown>;
        const text = (key: string) => (typeof read[key] === 'string' ? (read[key] as string) : undefined);
        await recordCaseIdentity(db, cipher, { ...base, name: text('nombreCompleto'), curp: text('curp') });
      }
      if (verdict.kind === 'tolerated') await addEvidence(db, cipher, { ...base, kind: idEvidenceKinds.toleratedFront, payload: { reason: verdict.reason } });
      if (result.faceCrop) {
        const photo = await blobs.put(`${grantor.id}/${transaction.uuidUser}/identificacion/${transaction.uuidTrx}-rostro-${compactTimestamp(now)}.png`, result.faceCrop, { contentType: 'image/png' });
        await addEvidence(db, cipher, { ...base, kind: idEvidenceKinds.holderPhoto, blobKey: photo.key, sha256: photo.sha256 });
      }
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { ocrData: result.ocrData, ...(result.ocrBack ? { ocrBack: result.ocrBack } : {}) } };
    },
  });
}
