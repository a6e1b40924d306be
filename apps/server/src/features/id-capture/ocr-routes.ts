import { calls, errorTexts } from '@kyc/contracts';
import { refusalMessages } from '../../domain/attempts.js';
import { normalizeId } from '../../domain/transactions.js';
import { ownerParams } from '../../domain/grantor-params.js';
import type { IdSide } from '../../engines/ocr/types.js';
import { readStoredParams } from '../../store/grantors.js';
import { uploadLimits } from '../../uploads/limits.js';
import { multipartRouteSchema } from '../../http/multipart-plugin.js';
import { readUpload } from '../../uploads/read-multipart.js';
import { assertInOrder, authorizeInOrder } from '../events/journey-order.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { readIdSide, type IdSideResult } from './read-side.js';

const sideAliases: Record<string, IdSide> = { front: 'front', frente: 'front', back: 'back', reverso: 'back' };
const failureText: Record<IdSide, string> = { front: errorTexts.idFrontFailed, back: errorTexts.idBackFailed };

function parseSide(value: string | undefined): IdSide {
  const side = sideAliases[(value ?? '').trim().toLowerCase()];
  if (!side) throw new HttpError(400, "Invalid request: multipart field side must be 'front' or 'back'");
  return side;
}

/** The reply to a read that did not give a usable result (docs/flow.md §8 ID errors). */
function refusal(result: Exclude<IdSideResult, { kind: 'read' }>, side: IdSide): HttpError {
  switch (result.kind) {
    case 'exhausted':
      return new HttpError(429, refusalMessages[result.reason], errorTexts.attemptsExceeded);
    case 'content_rejected':
      return new HttpError(400, result.message, failureText[side]);
    case 'busy':
      return new HttpError(503, 'Busy: too many documents are being read; try again', errorTexts.serviceUnavailable);
    case 'unreadable': {
      if (result.exhausted) return new HttpError(429, `Attempts exhausted after: ${result.detail}`, errorTexts.attemptsExceeded);
      const unreadable = result.reason === 'incomplete' || result.reason === 'mrz_invalid';
      return new HttpError(422, `Unreadable ${side}: ${result.detail}`, unreadable ? errorTexts.idUnreadable : failureText[side]);
    }
  }
}

/**
 * `POST /v2/ocr` (calls.ocr, docs/flow.md §7): reads one side of an ID (read-side.ts), one attempt of
 * INTENTOS_ID_FRONTAL / INTENTOS_ID_REVERSO each (attempts/service.ts).
 */
export function registerOcrRoutes(app: ZodApp, deps: Deps): void {
  const { config, db } = deps;
  const call = calls.ocr;
  const limits = uploadLimits(config);
  app.route({
    method: call.method,
    url: call.path,
    schema: multipartRouteSchema(call, 'identification'),
    handler: async (request, reply) => {
      // Consent before any capture (409, nothing read); the back also needs a usable front (below).
      const { grantor, transaction, params: orderParams } = await authorizeInOrder(deps, request.headers, 'idFront');
      const params = ownerParams(grantor, await readStoredParams(deps, grantor.id), request.headers.apikey);
      const now = new Date();
      const { fields, file } = await readUpload(request, call.multipart, { limits, retryMessage: errorTexts.idUnreadable });
      if (normalizeId(fields.uuidUser ?? '') !== transaction.uuidUser) {
        throw new HttpError(400, 'Invalid request: multipart field uuidUser must equal the cliente header');
      }
      const side = parseSide(fields.side);
      if (side === 'back') await assertInOrder(deps, transaction.uuidTrx, 'idBack', orderParams);
      const result = await readIdSide(deps, {
        grantorId: grantor.id,
        uuidTrx: transaction.uuidTrx,
        uuidUser: transaction.uuidUser,
        side,
        file,
        params,
        passportHint: fields.passport === 'true',
        originOS: fields.originOS,
        now,
        log: request.log,
      });
      if (result.kind !== 'read') throw refusal(result, side);
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { ocrData: result.result.ocrData, ...(result.result.ocrBack ? { ocrBack: result.result.ocrBack } : {}) } };
    },
  });
}
