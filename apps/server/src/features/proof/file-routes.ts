import { calls, errorTexts } from '@kyc/contracts';
import { isProofOfAddressFolder, proofOfAddressFolder } from '../../domain/evidence.js';
import { refusalMessages } from '../../domain/attempts.js';
import { normalizeId } from '../../domain/transactions.js';
import { uploadLimits } from '../../uploads/limits.js';
import { multipartRouteSchema } from '../../http/multipart-plugin.js';
import { readUpload } from '../../uploads/read-multipart.js';
import { authorizeInOrder } from '../events/journey-order.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { proofReadingWire } from './proof-reading-wire.js';
import { checkProofOpen, storeProof } from './store-proof.js';

const exhausted = (reason: keyof typeof refusalMessages = 'exhausted') => new HttpError(429, refusalMessages[reason], errorTexts.attemptsExceeded);

/**
 * `POST /v1/file` (calls.file, docs/flow.md §7): the proof of address, stored, read and returned as `payload.lectura`
 * (store-proof.ts; attempts in attempts/service.ts). The client's `bucket` is accepted and ignored: where blobs
 * live is the server's configuration.
 */
export function registerFileRoutes(app: ZodApp, deps: Deps): void {
  const { config, db } = deps;
  const call = calls.file;
  const limits = uploadLimits(config);
  app.route({
    method: call.method,
    url: call.path,
    schema: multipartRouteSchema(call, 'evidence'),
    handler: async (request, reply) => {
      const { grantor, transaction, params } = await authorizeInOrder(deps, request.headers, 'proof');
      const open = await checkProofOpen(db, transaction.uuidTrx, params, new Date());
      if (open === 'locked') throw new HttpError(429, 'Attempts exhausted: the transaction is locked', errorTexts.attemptsExceeded);
      if (open === 'exhausted') throw exhausted();
      const { fields, file } = await readUpload(request, call.multipart, { limits, retryMessage: errorTexts.proofRetry });
      if (normalizeId(fields.uuid ?? '') !== transaction.uuidUser) throw new HttpError(400, 'Invalid request: multipart field uuid must equal the cliente header');
      if (!isProofOfAddressFolder(fields.folder ?? '', grantor.id, transaction.uuidUser)) {
        throw new HttpError(400, `Invalid request: multipart field folder must be ${proofOfAddressFolder('<grantor id>', '<user id>')} of this transaction`);
      }
      const ids = { grantorId: grantor.id, uuidTrx: transaction.uuidTrx, uuidUser: transaction.uuidUser };
      const result = await storeProof(deps, { ...ids, file, params, now: new Date(), log: request.log });
      if (result.kind === 'exhausted') throw exhausted(result.reason);
      if (result.kind === 'content_rejected') throw new HttpError(400, result.message, errorTexts.proofRetry);
      const { key, sha256, size, reading } = result.proof;
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { key, sha256, size, lectura: proofReadingWire(reading, result.attemptsLeft) } };
    },
  });
}
