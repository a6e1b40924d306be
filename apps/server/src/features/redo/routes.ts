import { errorTexts, redoFinished, redoIdRead, redoProofStored, redoTexts, redoMultipart, redoPaths, redoStatus, redoTokenHeader } from '@kyc/contracts';
import type { FastifyRequest } from 'fastify';
import { attemptSteps } from '../../domain/attempts.js';
import { ownerParams } from '../../domain/grantor-params.js';
import { RefusedError } from '../../domain/refusal.js';
import { assertTransactionAvailable } from '../../domain/transactions.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';
import { findGrantorById, readStoredParams } from '../../store/grantors.js';
import { findTransaction } from '../../store/transactions.js';
import { uploadLimits } from '../../uploads/limits.js';
import { readUpload } from '../../uploads/read-multipart.js';
import { readIdSide } from '../id-capture/read-side.js';
import { storeProof } from '../proof/store-proof.js';
import { resultLinkContext } from '../results/routes.js';
import { checkRedoCredential, type OpenRedo } from './links.js';
import { registerRedoFaceRoutes } from './face-routes.js';
import { completeRedo } from './requests.js';
import { assertRedoStep, redoAttemptStep, redoneSince } from './steps.js';

const hidden = { hide: true } as const;
const multipart = { ...hidden, consumes: ['multipart/form-data'] };
const sides: Record<string, 'front' | 'back'> = { front: 'front', frente: 'front', back: 'back', reverso: 'back' };

/**
 * The customer's side of a review's `redo` (docs/decisions.md "Asking the customer to redo one step"): the link's
 * credential (X-Redo-Token) opens one step of one finished transaction. The captures run the journey's own services
 * (read-side.ts, store-proof.ts) on attempts counted apart; `finish` uses the link up and sends the case back to review.
 */
export function registerRedoRoutes(app: ZodApp, deps: Deps): void {
  const { db, cipher, config } = deps;
  const limits = uploadLimits(config);
  const links = resultLinkContext(deps);

  /** The open redo of the request's credential, its grantor's parameters; the case must not be blocked or erased. */
  async function openRedo(request: FastifyRequest) {
    const raw = request.headers[redoTokenHeader];
    const redo = await checkRedoCredential(links, typeof raw === 'string' ? raw.trim() : undefined);
    assertTransactionAvailable(await findTransaction(db, redo.uuidTrx));
    const grantor = await findGrantorById(db, redo.grantorId);
    if (!grantor?.active) throw new RefusedError('link_grantor_inactive', 'The grantor of this link is not active');
    return { redo, grantor, params: ownerParams(grantor, await readStoredParams(deps, grantor.id), '') };
  }
  const ids = (redo: OpenRedo) => ({ grantorId: redo.grantorId, uuidTrx: redo.uuidTrx, uuidUser: redo.uuidUser });

  app.get(redoPaths.status, { schema: { ...hidden, response: { 200: redoStatus, ...errorResponses } } }, async (request, reply) => {
    const { redo } = await openRedo(request);
    reply.header('cache-control', 'no-store');
    return { step: redo.step, idOtorgante: redo.grantorId, uuid: redo.uuidUser, uuidTrx: redo.uuidTrx, expiresAt: redo.expiresAt.toISOString() };
  });

  app.post(redoPaths.id, { schema: { ...multipart, response: { 200: redoIdRead, ...errorResponses } } }, async (request, reply) => {
    const { redo, params } = await openRedo(request);
    assertRedoStep(redo, 'id');
    const { fields, file } = await readUpload(request, redoMultipart.id, { limits, retryMessage: errorTexts.idUnreadable });
    const side = sides[(fields.side ?? '').trim().toLowerCase()];
    if (!side) throw new HttpError(400, "Invalid request: multipart field side must be 'front' or 'back'");
    const counter = side === 'front' ? attemptSteps.idFront.step : attemptSteps.idBack.step;
    const base = { ...ids(redo), side, file, params, passportHint: fields.passport === 'true', now: new Date(), log: request.log };
    const result = await readIdSide(deps, { ...base, ...(fields.originOS ? { originOS: fields.originOS } : {}), attemptStep: redoAttemptStep(redo, counter) });
    if (result.kind === 'exhausted') throw new HttpError(429, 'Attempts exhausted for this redo', errorTexts.attemptsExceeded);
    if (result.kind === 'busy') throw new HttpError(503, 'Busy: too many documents are being read; try again', errorTexts.serviceUnavailable);
    if (result.kind === 'content_rejected') throw new HttpError(400, result.message, errorTexts.idUnreadable);
    if (result.kind === 'unreadable')
      throw new HttpError(result.exhausted ? 429 : 422, `Unreadable ${side}: ${result.detail}`, result.exhausted ? errorTexts.attemptsExceeded : errorTexts.idUnreadable);
    reply.header('cache-control', 'no-store');
    return { status: 200, payload: { ocrData: result.result.ocrData, ...(result.result.ocrBack ? { ocrBack: result.result.ocrBack } : {}) } };
  });

  app.post(redoPaths.proof, { schema: { ...multipart, response: { 200: redoProofStored, ...errorResponses } } }, async (request, reply) => {
    const { redo, params } = await openRedo(request);
    assertRedoStep(redo, 'proof');
    const { file } = await readUpload(request, redoMultipart.proof, { limits, retryMessage: errorTexts.proofRetry });
    const result = await storeProof(deps, { ...ids(redo), file, params, now: new Date(), log: request.log, attemptStep: redoAttemptStep(redo, attemptSteps.proof.step) });
    if (result.kind === 'exhausted') throw new HttpError(429, 'Attempts exhausted for this redo', errorTexts.attemptsExceeded);
    if (result.kind === 'content_rejected') throw new HttpError(400, result.message, errorTexts.proofRetry);
    reply.header('cache-control', 'no-store');
    const { reading } = result.proof;
    return { status: 200, payload: { read: reading.read === true, outcome: reading.outcome, attemptsLeft: result.attemptsLeft } };
  });

  registerRedoFaceRoutes(app, deps, openRedo);

  app.post(redoPaths.finish, { schema: { ...hidden, response: { 200: redoFinished, ...errorResponses } } }, async (request, reply) => {
    const { redo, params } = await openRedo(request);
    if (!(await redoneSince(db, cipher, redo))) throw new RefusedError('redo_step_incomplete', `The step '${redo.step}' was not sent again through this link yet`);
    const now = new Date();
    if (!(await completeRedo(db, cipher, { ...ids(redo), redoId: redo.redoId, step: redo.step, params }, now)))
      throw new RefusedError('link_consumed', 'The redo link was already used', redoTexts.used);
    request.log.info({ ...ids(redo), redoId: redo.redoId, step: redo.step }, 'redo completed: the case is back in review');
    reply.header('cache-control', 'no-store');
    return { step: redo.step, completedAt: now.toISOString() };
  });
}
