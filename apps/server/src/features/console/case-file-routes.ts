import { consoleCaseFile, consoleImageKinds, consolePaths, consoleReviewRequest } from '@kyc/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { assertTransactionAvailable } from '../../http/auth.js';
import { findTransaction } from '../../store/transactions.js';
import { listEvidence } from '../../store/evidence.js';
import { findOutcome } from '../results/outcomes.js';
import { imageBlobKey, readCaseFile } from './case-file.js';
import { listCases } from './cases.js';
import { reviewerRoles, type ConsoleKit } from './kit.js';
import { askRedo, type RedoLinks } from './redo-review.js';
import { recordReview } from './reviews.js';
import * as store from './store.js';

const caseParams = z.object({ uuidTrx: z.string().max(64) });
const grantorQuery = z.object({ grantorId: z.string().max(100).optional() });
const notFound = () => new HttpError(404, 'Case not found', 'No encontramos ese expediente.');
const noImage = () => new HttpError(404, 'No such image in this case', 'Este expediente no tiene esa imagen.');

/**
 * The case a user may see: one of their grantor's, or any for a platform operator (narrowed by grantorId when
 * given). Another grantor's case is refused exactly like a missing one, and the refusal is audited.
 */
export function visibleCaseOf({ db, cipher, config }: ConsoleKit) {
  return async (request: FastifyRequest, user: store.ConsoleUser, rawUuidTrx: string, asked: string | undefined) => {
    const uuidTrx = rawUuidTrx.toLowerCase();
    const transaction = await findTransaction(db, uuidTrx);
    const grantorId = user.role === 'operator' ? (asked?.toLowerCase() ?? transaction?.grantorId) : user.grantorId;
    const visible = transaction && grantorId && transaction.grantorId === grantorId;
    const page = visible ? await listCases(db, cipher, { grantorId, q: undefined, limit: 1, abandonAfterMs: config.abandonAfterMinutes * 60_000, cursor: undefined, only: uuidTrx }) : undefined;
    const row = page?.cases.find((c) => c.uuidTrx === uuidTrx);
    if (!transaction || !row || !grantorId) {
      await store.audit(db, { action: 'case_refused', userId: user.id, grantorId: user.grantorId, ip: request.ip, detail: { uuidTrx } });
      throw notFound();
    }
    // Blocked at the person's request: nothing of the case is read, as on every other read (451).
    assertTransactionAvailable(transaction);
    return { row, transaction, grantorId };
  };
}

/** The case file, its images, and the review of a finished case. */
export function registerCaseFileRoutes(app: ZodApp, kit: ConsoleKit, links: RedoLinks): void {
  const { db, cipher, blobs, config, errors, hidden } = kit;

  const visibleCase = visibleCaseOf(kit);

  app.get(consolePaths.caseFile, { schema: { ...hidden, params: caseParams, querystring: grantorQuery, response: { 200: consoleCaseFile, ...errors } } }, async (request, reply) => {
    const { user } = await kit.signedIn(request, reply);
    const { row, transaction, grantorId } = await visibleCase(request, user, request.params.uuidTrx, request.query.grantorId);
    const file = await readCaseFile(kit, { row, uuidUser: transaction.uuidUser, grantorId, mayReview: reviewerRoles.has(user.role) });
    await store.audit(db, { action: 'case_file_viewed', userId: user.id, grantorId, ip: request.ip, detail: { uuidTrx: row.uuidTrx } });
    return file;
  });

  app.get(consolePaths.caseImage, { schema: { ...hidden, params: caseParams.extend({ which: z.enum(consoleImageKinds) }), querystring: grantorQuery } }, async (request, reply) => {
    const { user } = await kit.signedIn(request, reply);
    const { row, grantorId } = await visibleCase(request, user, request.params.uuidTrx, request.query.grantorId);
    const key = imageBlobKey(await listEvidence(db, row.uuidTrx), request.params.which);
    if (!key) throw noImage();
    // Decrypted here, for this signed-in user only; never cached by the browser or a proxy.
    const blob = await blobs.get(key);
    if (!blob.contentType.startsWith('image/')) throw noImage();
    await store.audit(db, { action: 'case_image_viewed', userId: user.id, grantorId, ip: request.ip, detail: { uuidTrx: row.uuidTrx, image: request.params.which } });
    return reply.header('content-type', blob.contentType).header('x-content-type-options', 'nosniff').header('content-disposition', 'inline').send(blob.buffer);
  });

  async function refuseNonReviewer(request: FastifyRequest, user: store.ConsoleUser, uuidTrx: string) {
    if (reviewerRoles.has(user.role)) return;
    await store.audit(db, { action: 'review_refused', userId: user.id, grantorId: user.grantorId, ip: request.ip, detail: { uuidTrx, role: user.role } });
    throw new HttpError(403, 'Only a reviewer or an admin may decide a case', 'Tu rol no permite aprobar ni rechazar expedientes.');
  }

  const reviewSchema = { ...hidden, params: caseParams, querystring: grantorQuery, body: consoleReviewRequest, response: { 200: consoleCaseFile, ...errors } };
  app.post(consolePaths.caseReview, { schema: reviewSchema }, async (request, reply) => {
    const { user } = await kit.signedIn(request, reply, true);
    const uuidTrx = request.params.uuidTrx.toLowerCase();
    await refuseNonReviewer(request, user, uuidTrx);
    const { row, transaction, grantorId } = await visibleCase(request, user, uuidTrx, request.query.grantorId);
    if (!(await findOutcome(db, row.uuidTrx))) {
      throw new HttpError(409, 'The case is not finished: only a finished case is reviewed', 'Este expediente todavía no termina; podrás revisarlo cuando concluya.');
    }
    const before = await readCaseFile(kit, { row, uuidUser: transaction.uuidUser, grantorId, mayReview: true });
    const { decision, reason, note, step, channels } = request.body;
    const base = { uuidTrx: row.uuidTrx, uuidUser: transaction.uuidUser, grantorId, userId: user.id, ip: request.ip, reason, note, flag: before.score.flag };
    if (decision === 'redo' && step && channels) await askRedo({ db, cipher, links }, { ...base, step, channels });
    else if (decision !== 'redo' && !(await recordReview(db, cipher, { ...base, decision })).reviewed) {
      throw new HttpError(409, 'The case was already reviewed', 'Este expediente ya fue revisado.');
    }
    const { row: after } = await visibleCase(request, user, uuidTrx, grantorId);
    return readCaseFile(kit, { row: after, uuidUser: transaction.uuidUser, grantorId, mayReview: true });
  });
}
