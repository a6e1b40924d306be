import { calls, errorTexts, paramEnabled, paramValue, type GrantorParam } from '@kyc/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { publicBaseUrl } from '../../config.js';
import { loadLinkKey } from '../../crypto/link-key.js';
import { ownerParams } from '../../domain/grantor-params.js';
import { consistentSending, customId, semaforo, tipoEnvio } from './result-mail.js';
import { normalizeId } from '../../domain/transactions.js';
import { enqueueJob } from '../../jobs/queue.js';
import { storeBundle } from './bundle.js';
import { generateDocuments, latestDocuments } from './documents-service.js';
import { emailJobKind, type EmailJobPayload } from './email-job.js';
import { claimResultEmail, releaseResultEmail } from './result-emails.js';
import { scoreOf } from './facts.js';
import {
  checkLinkCredential,
  checkLinkToken,
  consumeLink,
  enlaceUrl,
  issueResultLink,
  LinkRefusedError,
  signLinkToken,
  type LinkContext,
  type LinkRefusalReason,
  type ResultDocument,
} from './links.js';
import { assertTransactionOpen } from './outcomes.js';
import { authorizeLink } from './link-video.js';
import { RefusedError } from '../../domain/refusal.js';
import { evidenceKind, type VideoTokenDecision } from '../../domain/evidence-kinds.js';
import { addEvidence, latestEvidence } from '../../store/evidence.js';
import { readStoredParams } from '../../store/grantors.js';
import { authorizeTransactionRead, requireReadCredential } from '../../http/auth.js';
import { authorizeInOrder } from '../events/journey-order.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';

export interface ResultsOptions {
  /** Runs due jobs now when this process runs the job worker (the worker polls otherwise). */
  wakeJobs?: () => void;
}

const freshFaceMs = 30 * 60_000;

/** The result-link context of this app (its key loaded once, kept in the app's caches): what verifyResultLink needs. */
export function resultLinkContext(deps: Pick<Deps, 'config' | 'db' | 'caches'>): LinkContext {
  return deps.caches.slot('results.linkContext', () => ({ db: deps.db, caches: deps.caches, linkKey: loadLinkKey(deps.config).key, baseUrl: publicBaseUrl(deps.config) }));
}

/** A body's uuidUser must name the user of the cliente header. */
function assertBodyUser(uuidUser: string, cliente: string): void {
  if (normalizeId(uuidUser) !== normalizeId(cliente)) {
    throw new HttpError(400, 'Invalid request: body uuidUser must equal the cliente header');
  }
}

/** The body checks of the e-mail and NOM-151 sends: the user of the header, and tipo_envio agreeing with semaforo. */
function assertSendingBody(body: { uuidUser: string; tipo_envio: Parameters<typeof consistentSending>[0]; semaforo: Parameters<typeof consistentSending>[1] }, cliente: string): void {
  assertBodyUser(body.uuidUser, cliente);
  if (!consistentSending(body.tipo_envio, body.semaforo)) {
    throw new HttpError(400, 'Invalid request: tipo_envio is COMPLETO exactly when semaforo is green');
  }
}

/** The server's custom id of the result (PARTNER, NOMBRE_CORTO, date, user). */
function resultCustomId(params: Parameters<typeof paramValue>[0], date: Date, uuidUser: string): string {
  return customId({ partner: paramValue(params, 'PARTNER'), shortName: paramValue(params, 'NOMBRE_CORTO'), date, uuidUser });
}

/** Hours of HORAS_VIGENCIA_ENLACE (72 by default). */
function linkHours(params: Parameters<typeof paramValue>[0]): number {
  const hours = Number.parseInt(paramValue(params, 'HORAS_VIGENCIA_ENLACE'), 10);
  return Number.isFinite(hours) && hours > 0 && hours <= 24 * 365 ? hours : 72;
}

/**
 * The results of docs/flow.md §7: query_score, proccessdocuments, async_zip_nom_151_correo, nom_151 and the enlace
 * download. The result e-mail is a durable job (email-worker.ts), sent by whichever process runs the job worker.
 */
export function registerResultsRoutes(app: ZodApp, deps: Deps, options: ResultsOptions = {}): void {
  const links = resultLinkContext(deps);
  registerScoreRoute(app, deps);
  registerDocumentsRoute(app, deps, links);
  registerLinkStatusRoute(app, deps, links);
  registerEnlaceRoute(app, deps, links);
  registerEmailRoute(app, deps, links, options);
  registerNom151Route(app, deps);
}

/** The traffic light and its explained rules (query_score), read by the flow or the lender's server. */
function registerScoreRoute(app: ZodApp, deps: Deps): void {
  const { db, cipher } = deps;
  const score = calls.queryScore;
  app.route({
    method: score.method,
    url: score.path,
    schema: {
      summary: score.summary,
      tags: ['results'],
      headers: score.headers,
      params: score.params,
      querystring: score.query,
      response: { 200: score.response, ...errorResponses },
    },
    handler: async (request, reply) => {
      const { params, headers } = request;
      if (normalizeId(params.uuidUser) !== normalizeId(headers.cliente) || normalizeId(params.uuidTrx) !== normalizeId(headers.transaccion)) {
        throw new HttpError(400, 'Invalid request: path uuidUser and uuidTrx must equal the cliente and transaccion headers');
      }
      const { grantor, transaction } = await authorizeTransactionRead(deps, request, reply, headers);
      const grantorParams = ownerParams(grantor, await readStoredParams(deps, grantor.id), headers.apikey);
      const result = await scoreOf(db, cipher, transaction.uuidTrx, grantorParams);
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx, flag: result.flag }, 'score computed');
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { flag: result.flag, Fields: result.Fields } };
    },
  });
}

/** The result documents (proccessdocuments): generated, each behind a one-time result link. */
function registerDocumentsRoute(app: ZodApp, deps: Deps, links: LinkContext): void {
  const { db, cipher, blobs } = deps;
  const documents = calls.processDocuments;
  app.route({
    method: documents.method,
    url: documents.path,
    schema: {
      summary: documents.summary,
      tags: ['results'],
      headers: documents.headers,
      body: documents.body,
      response: { 200: documents.response, ...errorResponses },
    },
    handler: async (request, reply) => {
      assertBodyUser(request.body.uuidUser, request.headers.cliente);
      await requireReadCredential(deps, request, reply, request.headers);
      const { grantor, transaction } = await authorizeInOrder(deps, request.headers, 'result');
      const grantorParams = ownerParams(grantor, await readStoredParams(deps, grantor.id), request.headers.apikey);
      const now = new Date();
      const trx = { uuidTrx: transaction.uuidTrx, uuidUser: transaction.uuidUser, grantorId: grantor.id };
      const generated = await generateDocuments(deps, trx, now);
      // A customer whose face matched in this transaction within the last 30 minutes has just re-verified: the
      // links start verified (one download each). Otherwise each needs the face re-verification of the link flow.
      const faceRecord = await latestEvidence(db, cipher, transaction.uuidTrx, evidenceKind.videoToken);
      const face = faceRecord && now.getTime() - Date.parse(faceRecord.createdAt) <= freshFaceMs ? (faceRecord.payload as VideoTokenDecision) : undefined;
      const expiresAt = new Date(now.getTime() + linkHours(grantorParams) * 3_600_000);
      const payloadLinks: Record<string, string> = {};
      for (const doc of generated.documents) {
        const issued = await issueResultLink(links, { ...trx, document: doc.name, expiresAt, verified: face?.match === true }, now);
        const token = await signLinkToken(links, { ...trx, linkId: issued.linkId, document: doc.name, fecha: issued.fecha });
        payloadLinks[doc.name] = enlaceUrl(links.baseUrl, token);
      }
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx, documents: generated.documents.length, flag: generated.score.flag }, 'documents generated');
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { links: payloadLinks } };
    },
  });
}

/** The link-status screen's texts of a consulted or expired link (any other refusal is a bad URL). */
const linkStatusTexts: Partial<Record<LinkRefusalReason, string>> = { link_consumed: errorTexts.linkConsumed, link_expired: errorTexts.linkExpired };

/** Whether a result link can still be consulted (asked by /pdf_token before any camera step). */
function registerLinkStatusRoute(app: ZodApp, deps: Deps, links: LinkContext): void {
  const status = calls.linkStatus;
  app.route({
    method: status.method,
    url: status.path,
    schema: { summary: status.summary, tags: ['results'], headers: status.headers, response: { 200: status.response, ...errorResponses } },
    // Asked by /pdf_token before any camera step: a consumed or expired link gets its own screen at once.
    handler: async (request, reply) => {
      const credential = request.headers['x-consumer-custom-id'];
      reply.header('cache-control', 'no-store');
      const open = await checkLinkCredential(links, credential).catch((error: unknown) => {
        throw error instanceof LinkRefusedError ? new RefusedError(error.reason, error.message, linkStatusTexts[error.reason] ?? errorTexts.badUrl) : error;
      });
      await authorizeLink(links, credential);
      return { status: 200 as const, payload: { state: 'open' as const, expiresAt: new Date(open.fecha).toISOString() } };
    },
  });
}

/** The one-time download of a result link's document. */
function registerEnlaceRoute(app: ZodApp, deps: Deps, links: LinkContext): void {
  const { db, cipher, blobs } = deps;
  const enlace = calls.enlace;
  app.route({
    method: enlace.method,
    url: enlace.path,
    schema: { summary: enlace.summary, tags: ['results'], params: enlace.params, produces: ['application/pdf'], response: { 200: enlace.response, ...errorResponses } },
    handler: async (request, reply) => {
      const now = new Date();
      // A refused link answers its reason's status without a client text.
      const link = await checkLinkToken(links, request.params.token, now);
      const stored = (await latestDocuments({ db, cipher }, link.uuidTrx)).get(link.document);
      if (!stored) throw new HttpError(404, 'The document of this link is not available');
      const pdf = await blobs.get(stored.blobKey);
      // Served only by the request that wins the one consultation.
      if (!(await consumeLink(db, link.linkId, now))) throw new HttpError(410, 'The document of this link was already consulted');
      request.log.info({ grantorId: link.grantorId, uuidTrx: link.uuidTrx, linkId: link.linkId, document: link.document }, 'result link consulted');
      return reply.header('cache-control', 'no-store').header('content-disposition', `attachment; filename="pdf_${link.document}.pdf"`).type('application/pdf').send(pdf.buffer);
    },
  });
}

type EmailBody = z.infer<typeof calls.emailResult.body>;

/** The recipient claimed for this send: the address confirmed first, within its resends (409 otherwise, nothing sent). */
async function claimRecipient(db: Deps['db'], cipher: Deps['cipher'], uuidTrx: string, email: string, resends: number, now: Date, log: FastifyBaseLogger) {
  const claim = await claimResultEmail(db, cipher, uuidTrx, email, resends, now);
  if (claim.kind === 'other_address') {
    log.warn({ uuidTrx }, 'result e-mail refused: another address than the confirmed one');
    throw new HttpError(409, 'The result e-mail of this transaction goes only to the address confirmed first; nothing was sent', errorTexts.emailOtherAddress);
  }
  if (claim.kind === 'exhausted') {
    throw new HttpError(409, `The result e-mail of this transaction was already sent ${claim.sends} times (1 + RESULT_EMAIL_RESENDS); nothing was sent`, errorTexts.emailAlreadySent);
  }
  return claim;
}

/**
 * The result e-mail's job queued (with its result link unless the result is red, and the confirmed data kept as
 * evidence); the claimed recipient is released when anything fails, so the send can be retried.
 */
async function queueResultEmail(
  { db, cipher }: Pick<Deps, 'db' | 'cipher'>,
  links: LinkContext,
  send: { trx: { uuidTrx: string; uuidUser: string; grantorId: string }; grantorName: string; grantorParams: GrantorParam[]; flag: Parameters<typeof semaforo>[0]; body: EmailBody },
  now: Date,
): Promise<string> {
  const { trx, grantorParams, flag, body } = send;
  try {
    const link =
      flag === 'RED' ? undefined : await issueResultLink(links, { ...trx, document: 'autorizacion' as ResultDocument, expiresAt: new Date(now.getTime() + linkHours(grantorParams) * 3_600_000) }, now);
    // The data the user confirmed reaches the server only here: kept as data_user evidence, the documents
    // generated later (proccessdocuments, result links) show it too, not just this e-mail's report.
    if (body.data_user && body.data_user.length > 0) {
      await addEvidence(db, cipher, { uuidTrx: trx.uuidTrx, grantorId: trx.grantorId, kind: evidenceKind.userData, payload: body.data_user });
    }
    const bodyData = body.data_user?.map((d) => [d.description, d.value, ...(d.typed ? [true as const] : [])] as [string, string, true?]);
    // No text of the request reaches the message: the greeting names nobody (body.name is free text).
    const payload: EmailJobPayload = {
      ...trx,
      grantorName: send.grantorName,
      email: body.email.trim(),
      name: '',
      flag,
      tipo_envio: tipoEnvio(flag),
      semaforo: semaforo(flag),
      customId: resultCustomId(grantorParams, now, trx.uuidUser),
      clientCustomId: body.custom_uuid,
      ...(link ? { pdfTokenUrl: link.pdfTokenUrl, fecha: link.fecha } : {}),
      ...(bodyData ? { userData: bodyData } : {}),
    };
    return await enqueueJob(db, cipher, { kind: emailJobKind, uuidTrx: trx.uuidTrx, payload }, now);
  } catch (error) {
    await releaseResultEmail(db, trx.uuidTrx).catch(() => undefined);
    throw error;
  }
}

/** The result e-mail (async_zip_nom_151_correo): one confirmed recipient, queued as a durable job. */
function registerEmailRoute(app: ZodApp, deps: Deps, links: LinkContext, options: ResultsOptions): void {
  const { config, db, cipher } = deps;
  const email = calls.emailResult;
  app.route({
    method: email.method,
    url: email.path,
    schema: {
      summary: email.summary,
      tags: ['results'],
      headers: email.headers,
      body: email.body,
      response: { 200: email.response, ...errorResponses },
    },
    handler: async (request, reply) => {
      const { body, headers } = request;
      assertSendingBody(body, headers.cliente);
      await requireReadCredential(deps, request, reply, headers);
      const { grantor, transaction } = await authorizeInOrder(deps, headers, 'result');
      await assertTransactionOpen(db, transaction.uuidTrx);
      const grantorParams = ownerParams(grantor, await readStoredParams(deps, grantor.id), headers.apikey);
      const now = new Date();
      // The server's own score decides what is sent; the client's semaforo is kept for the record.
      const result = await scoreOf(db, cipher, transaction.uuidTrx, grantorParams, now);
      if (semaforo(result.flag) !== body.semaforo) {
        request.log.warn({ uuidTrx: transaction.uuidTrx, client: body.semaforo, server: result.flag }, 'the client sent another semaforo than the server computes');
      }
      // One recipient per transaction, taken before anything is written: the address the customer confirmed on the
      // final screen (the first accepted call); later calls may only resend to it, RESULT_EMAIL_RESENDS times.
      const claim = await claimRecipient(db, cipher, transaction.uuidTrx, body.email, config.resultEmailResends, now, request.log);
      const trx = { uuidTrx: transaction.uuidTrx, uuidUser: transaction.uuidUser, grantorId: grantor.id };
      const jobId = await queueResultEmail({ db, cipher }, links, { trx, grantorName: paramValue(grantorParams, 'NOMBRE_CORTO').trim() || grantor.name, grantorParams, flag: result.flag, body }, now);
      options.wakeJobs?.();
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx, jobId, flag: result.flag, send: claim.sends }, 'result e-mail queued');
      reply.header('cache-control', 'no-store');
      return { status: 200 as const, payload: { jobId } };
    },
  });
}

/** The evidence bundle stored with its time-stamp; a failure of the time-stamping service answers 502. */
async function timestampedBundle(deps: Parameters<typeof storeBundle>[0], trx: Parameters<typeof storeBundle>[1], content: Parameters<typeof storeBundle>[2], now: Date, log: FastifyBaseLogger) {
  try {
    return await storeBundle(deps, trx, content, now);
  } catch (error) {
    if (error instanceof HttpError || error instanceof RefusedError) throw error;
    log.error({ err: error, uuidTrx: trx.uuidTrx }, 'evidence bundle failed');
    throw new HttpError(502, 'The evidence bundle could not be time-stamped', 'El servicio no se encuentra disponible, lo solucionaremos en breve');
  }
}

/** The evidence bundle with its RFC 3161 time-stamp (nom_151), when the grantor turns it on. */
function registerNom151Route(app: ZodApp, deps: Deps): void {
  const { config, db, cipher, blobs } = deps;
  const nom151 = calls.nom151;
  app.route({
    method: nom151.method,
    url: nom151.path,
    schema: {
      summary: nom151.summary,
      tags: ['results'],
      headers: nom151.headers,
      body: nom151.body,
      response: { 200: nom151.response, ...errorResponses },
    },
    handler: async (request, reply) => {
      const { body, headers } = request;
      assertSendingBody(body, headers.cliente);
      await requireReadCredential(deps, request, reply, headers);
      const { grantor, transaction } = await authorizeInOrder(deps, headers, 'result');
      const grantorParams = ownerParams(grantor, await readStoredParams(deps, grantor.id), headers.apikey);
      if (!paramEnabled(grantorParams, 'SEND_ZIP_SEMAFORO')) {
        throw new HttpError(403, 'The evidence bundle is off for this grantor (SEND_ZIP_SEMAFORO)', 'El envío del paquete de evidencias no está habilitado.');
      }
      await assertTransactionOpen(db, transaction.uuidTrx);
      const now = new Date();
      const trx = { uuidTrx: transaction.uuidTrx, uuidUser: transaction.uuidUser, grantorId: grantor.id };
      const id = resultCustomId(grantorParams, now, transaction.uuidUser);
      const bundle = await timestampedBundle(deps, trx, { customId: id, body: { ...body, custom_uuid_servidor: id } }, now, request.log);
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx, evidenceId: bundle.evidenceId, timestamp: bundle.timestamp.kind }, 'evidence bundle stored');
      reply.header('cache-control', 'no-store');
      return {
        status: 200 as const,
        payload: {
          custom_uuid: id,
          sha256: bundle.sha256,
          manifestSha256: bundle.manifestSha256,
          files: bundle.manifest.files.length,
          timestamp: { kind: bundle.timestamp.kind, source: bundle.timestamp.source, genTime: bundle.timestamp.genTime, ...(bundle.timestamp.notice ? { notice: bundle.timestamp.notice } : {}) },
        },
      };
    },
  });
}
