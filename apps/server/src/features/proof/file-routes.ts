import { randomBytes } from 'node:crypto';
import { calls, errorTexts, paramInt } from '@kyc/contracts';
import { evidenceKinds, isProofOfAddressFolder, proofOfAddressFolder, proofOfAddressKey } from '../../domain/evidence.js';
import { evidenceKind } from '../../domain/evidence-kinds.js';
import { ownerParams } from '../../domain/grantor-params.js';
import { attemptsLeft, attemptSteps, isLocked, lockUntilAfter, normalizeId } from '../../domain/transactions.js';
import { addEvidence } from '../../store/evidence.js';
import { readStoredParams } from '../../store/grantors.js';
import { findTransaction, incrementAttempt, readAttempts, setLockUntil } from '../../store/transactions.js';
import { checkContent, type ContentInfo } from '../../uploads/check-content.js';
import { ContentRejectedError } from '../../uploads/content-error.js';
import { uploadLimits } from '../../uploads/limits.js';
import { multipartRouteSchema } from '../../uploads/plugin.js';
import { readUpload, type UploadedFile } from '../../uploads/read-multipart.js';
import { extensionOf } from '../../uploads/sniff.js';
import { assertTransactionOpen } from '../results/outcomes.js';
import { authorizeTransaction } from '../../http/auth.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { idHolderName, proofReadingWire, readProof } from './proof-reading-wire.js';

async function checkProof(file: UploadedFile): Promise<ContentInfo> {
  try {
    return await checkContent(file);
  } catch (error) {
    if (error instanceof ContentRejectedError) throw new HttpError(400, error.message, errorTexts.proofRetry);
    throw error;
  }
}

/**
 * `POST /v1/file` (calls.file, spec §7): the proof of address. Stored encrypted and recorded as evidence of the
 * transaction; 200 only once both the blob and its record are durable, and neither is kept when either fails.
 * The client's `bucket` is accepted and ignored: where blobs live is the server's configuration.
 * The stored image is then read (the 'proof' mode of the OCR engine) and the reading, with whether the bill is in the
 * ID holder's name and recent, is recorded (`comprobante_lectura`) and returned to pre-fill the address form. An
 * unreadable proof is still stored, and uses one of the attempts (INTENTOS_ID_FRONTAL, spec §2); the last one locks
 * the transaction for an hour like the ID capture.
 */
export function registerFileRoutes(app: ZodApp, { config, db, cipher, blobs, ocr }: Deps): void {
  const call = calls.file;
  const limits = uploadLimits(config);
  app.route({
    method: call.method,
    url: call.path,
    schema: multipartRouteSchema(call, 'evidence'),
    handler: async (request, reply) => {
      const { grantor, transaction } = await authorizeTransaction(db, request.headers);
      await assertTransactionOpen(db, transaction.uuidTrx);
      const params = ownerParams(grantor, await readStoredParams(db, grantor.id), request.headers.apikey);
      const limit = paramInt(params, attemptSteps.proof.limitParam);
      const record = await findTransaction(db, transaction.uuidTrx);
      if (isLocked(record?.lockUntil ?? null, new Date())) {
        throw new HttpError(429, 'Attempts exhausted: the transaction is locked', errorTexts.attemptsExceeded);
      }
      const used = (await readAttempts(db, transaction.uuidTrx))[attemptSteps.proof.step] ?? 0;
      if (used >= limit) throw new HttpError(429, 'Attempts exhausted', errorTexts.attemptsExceeded);
      const { fields, file } = await readUpload(request, call.multipart, { limits, retryMessage: errorTexts.proofRetry });
      if (normalizeId(fields.uuid ?? '') !== transaction.uuidUser) {
        throw new HttpError(400, 'Invalid request: multipart field uuid must equal the cliente header');
      }
      if (!isProofOfAddressFolder(fields.folder ?? '', grantor.id, transaction.uuidUser)) {
        const expected = proofOfAddressFolder('<grantor id>', '<user id>');
        throw new HttpError(400, `Invalid request: multipart field folder must be ${expected} of this transaction`);
      }
      const content = await checkProof(file);

      const now = new Date();
      const key = proofOfAddressKey({
        grantorId: grantor.id,
        uuidUser: transaction.uuidUser,
        uuidTrx: transaction.uuidTrx,
        at: now,
        suffix: randomBytes(4).toString('hex'),
        extension: extensionOf(file.sniffedType),
      });
      const stored = await blobs.put(key, file.buffer, { contentType: file.sniffedType });
      let evidenceId: string;
      try {
        const evidence = {
          uuidTrx: transaction.uuidTrx,
          grantorId: grantor.id,
          kind: evidenceKinds.proofOfAddress,
          blobKey: stored.key,
          sha256: stored.sha256,
          payload: { contentType: file.sniffedType, size: stored.size, ...content },
        };
        evidenceId = await addEvidence(db, cipher, evidence, now);
      } catch (error) {
        await blobs
          .delete(stored.key)
          .catch((err: unknown) => request.log.error({ err, blobKey: stored.key }, 'could not remove an unrecorded blob'));
        throw error;
      }
      request.log.info(
        { grantorId: grantor.id, uuidTrx: transaction.uuidTrx, evidenceId, type: file.sniffedType, size: stored.size },
        'proof of address stored',
      );
      const reading = await readProof(ocr, {
        image: file.buffer,
        contentType: file.sniffedType,
        params,
        idName: await idHolderName(db, cipher, transaction.uuidTrx),
        now,
      });
      await addEvidence(db, cipher, {
        uuidTrx: transaction.uuidTrx,
        grantorId: grantor.id,
        kind: evidenceKind.proofReading,
        blobKey: stored.key,
        payload: reading,
      });
      let left = attemptsLeft(used, limit);
      if (reading.read !== true && reading.detail !== 'engine_busy' && reading.detail !== 'pdf_not_read') {
        const count = await incrementAttempt(db, transaction.uuidTrx, attemptSteps.proof.step);
        left = attemptsLeft(count, limit);
        if (left === 0) await setLockUntil(db, transaction.uuidTrx, lockUntilAfter(now));
      }
      request.log.info(
        { uuidTrx: transaction.uuidTrx, outcome: reading.outcome, read: reading.read, nameMatchesId: reading.nameMatchesId, recent: reading.recent, attemptsLeft: left },
        'proof of address read',
      );
      reply.header('cache-control', 'no-store');
      return {
        status: 200 as const,
        payload: { key: stored.key, sha256: stored.sha256, size: stored.size, lectura: proofReadingWire(reading, left) },
      };
    },
  });
}
