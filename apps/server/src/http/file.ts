import { randomBytes } from 'node:crypto';
import { calls, errorTexts } from '@kyc/contracts';
import { evidenceKinds, isProofOfAddressFolder, proofOfAddressFolder, proofOfAddressKey } from '../domain/evidence.js';
import { normalizeId } from '../domain/transactions.js';
import { addEvidence } from '../store/evidence.js';
import { checkContent, type ContentInfo } from '../uploads/check-content.js';
import { ContentRejectedError } from '../uploads/content-error.js';
import { uploadLimits } from '../uploads/limits.js';
import { multipartContentType } from '../uploads/plugin.js';
import { readUpload, type UploadedFile } from '../uploads/read-multipart.js';
import { extensionOf } from '../uploads/sniff.js';
import { assertTransactionOpen } from '../results/outcomes.js';
import { authorizeTransaction } from './auth.js';
import type { Deps, ZodApp } from './deps.js';
import { errorResponses, HttpError } from './errors.js';

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
 */
export function registerFileRoutes(app: ZodApp, { config, db, cipher, blobs }: Deps): void {
  const call = calls.file;
  const limits = uploadLimits(config);
  app.route({
    method: call.method,
    url: call.path,
    schema: {
      summary: call.summary,
      tags: ['evidence'],
      headers: call.headers,
      consumes: [multipartContentType],
      response: { 200: call.response, ...errorResponses },
    },
    handler: async (request, reply) => {
      const { grantor, transaction } = await authorizeTransaction(db, request.headers);
      await assertTransactionOpen(db, transaction.uuidTrx);
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
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { key: stored.key, sha256: stored.sha256, size: stored.size } };
    },
  });
}
