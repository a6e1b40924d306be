import { calls, errorTexts, type schemas, type LifecycleEvent } from '@kyc/contracts';
import type { z } from 'zod';
import { consentAcceptanceOf } from './consent-acceptance.js';
import { evidenceKind } from '../../domain/evidence-kinds.js';
import { decideLifecycleEvent } from './lifecycle.js';
import { normalizeId } from '../../domain/transactions.js';
import { findOutcome, recordOutcome } from '../results/outcomes.js';
import { recordCaseIdentity } from '../console/case-index.js';
import { announceVerificationEnd, verificationEndOf } from '../webhooks/verification-events.js';
import { ownerParams } from '../../domain/grantor-params.js';
import { loadStoredParams } from '../../store/grantors.js';
import { addEvidence, listEvidence } from '../../store/evidence.js';
import { insertAuditEvent, insertLifecycleEvent, listAuditEvents, listLifecycleEvents, takeEventSlot } from './store.js';
import { readAttempts } from '../../store/attempts.js';
import { setCancelled, setCurrentStep, setLockUntil } from '../../store/transactions.js';
import { authorizeServerRead, authorizeTransaction, type TransactionOwnership } from '../../http/auth.js';
import type { Db } from '../../store/db.js';
import type { Grantor } from '../../store/grantors.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { secretKeySecurityScheme } from '../../http/secret-auth.js';
import { errorResponses, HttpError } from '../../http/errors.js';
import { RefusedError } from '../../domain/refusal.js';

type StoredAuditEvent = Omit<z.output<typeof schemas.auditEventBody>, 'apikey'>;

const sameId = (a: string, b: string) => normalizeId(a) === normalizeId(b);

/** 429 once the transaction stored EVENTS_PER_TRANSACTION events: nothing more is stored (issue #15). */
function eventBoundReached(max: number): HttpError {
  return new HttpError(429, `This transaction already stored the most events allowed (${max}, EVENTS_PER_TRANSACTION); nothing was stored`, errorTexts.tooManyRequests);
}

export function registerEventRoutes(app: ZodApp, deps: Deps): void {
  const maxEvents = deps.config.eventsPerTransaction;
  registerLifecycleRoute(app, deps, maxEvents);
  registerAuditRoute(app, deps, maxEvents);
  registerTransactionEventsRoute(app, deps);
}

/**
 * One lifecycle event in its database transaction: the lifecycle rule decides (docs/flow.md §4: a finished
 * transaction is never re-opened; a retry-limit failure locks it for an hour), then the event, the step, the
 * cancellation and the verification's end are stored together. Returns the event's id.
 */
async function storeLifecycleEvent(
  tx: Db,
  cipher: Deps['cipher'],
  event: { grantor: Grantor; transaction: TransactionOwnership; body: LifecycleEvent; apiKey: string; maxEvents: number },
  now: Date,
): Promise<string> {
  const { grantor, transaction, body, maxEvents } = event;
  // Spec §4: a finished transaction is never re-opened; a retry-limit failure locks it for an hour.
  const decision = decideLifecycleEvent({ finished: (await findOutcome(tx, transaction.uuidTrx)) !== undefined }, body, now);
  if (decision.kind === 'refuse') throw new RefusedError(decision.reason, decision.message);
  if (!(await takeEventSlot(tx, transaction.uuidTrx, maxEvents))) throw eventBoundReached(maxEvents);
  if (decision.finish && !(await recordOutcome(tx, transaction.uuidTrx, decision.finish.status, now))) {
    throw new HttpError(409, 'The transaction is finished: it accepts no more updates');
  }
  if (decision.lockUntil) await setLockUntil(tx, transaction.uuidTrx, decision.lockUntil, now);
  const eventId = await insertLifecycleEvent(tx, cipher, {
    uuidTrx: transaction.uuidTrx,
    grantorId: grantor.id,
    step: body.step,
    payload: body,
  });
  await setCurrentStep(tx, transaction.uuidTrx, body.step);
  // The lender's webhook is queued with the event that ends the verification, so it exists exactly if that does.
  const end = verificationEndOf(body);
  // 'Cancelar proceso' closes the transaction: Back or a replayed call cannot resume it (docs/flow.md §4).
  if (end?.reason === 'cancelled') await setCancelled(tx, transaction.uuidTrx, now);
  if (end) {
    const params = ownerParams(grantor, await loadStoredParams(tx, grantor.id), event.apiKey);
    await announceVerificationEnd(tx, cipher, { grantorId: grantor.id, uuidTrx: transaction.uuidTrx, uuidUser: transaction.uuidUser, step: body.step, end, params }, now);
  }
  return eventId;
}

/** Lifecycle updates (update_cycle): one per step, the end of a verification, a cancellation, the retry-limit lock. */
function registerLifecycleRoute(app: ZodApp, deps: Deps, maxEvents: number): void {
  const { db, cipher } = deps;
  const cycle = calls.updateCycle;
  app.route({
    method: cycle.method,
    url: cycle.path,
    schema: {
      summary: cycle.summary,
      tags: ['events'],
      headers: cycle.headers,
      body: cycle.body,
      response: { 200: cycle.response, ...errorResponses },
    },
    handler: async (request) => {
      const { body, headers } = request;
      // Checked before anything is written: an event may only describe the transaction of its headers.
      if (!sameId(body.trx_id, headers.transaccion) || !sameId(body.client_id, headers.cliente)) {
        throw new HttpError(400, 'Invalid request: body trx_id and client_id must equal the transaccion and cliente headers');
      }
      const { grantor, transaction } = await authorizeTransaction(deps, headers);
      const now = new Date();
      const id = await db.transaction().execute((tx) => storeLifecycleEvent(tx, cipher, { grantor, transaction, body, apiKey: headers.apikey, maxEvents }, now));
      if (body.nombreCompleto) await recordCaseIdentity(db, cipher, { uuidTrx: transaction.uuidTrx, grantorId: grantor.id, name: body.nombreCompleto });
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx, step: body.step, eventId: id }, 'lifecycle event stored');
      return { status: 200 as const, payload: { id } };
    },
  });
}

/** Audit events (celd_events): the flow's acceptances and data, kept as evidence. */
function registerAuditRoute(app: ZodApp, deps: Deps, maxEvents: number): void {
  const { db, cipher } = deps;
  const audit = calls.auditEvent;
  app.route({
    method: audit.method,
    url: audit.path,
    schema: {
      summary: audit.summary,
      tags: ['events'],
      headers: audit.headers,
      body: audit.body,
      response: { 200: audit.response, ...errorResponses },
    },
    handler: async (request) => {
      const { body, headers } = request;
      if (!sameId(body.uuid_trx, headers.transaccion) || !sameId(body.uuid_clt, headers.cliente)) {
        throw new HttpError(400, 'Invalid request: body uuid_trx and uuid_clt must equal the transaccion and cliente headers');
      }
      const { grantor, transaction } = await authorizeTransaction(deps, headers);
      // The api key some clients copy into the body is a secret: it is never stored. The client's address and
      // browser are kept with the event because an acceptance is evidence (who accepted, from where).
      const { apikey: _secret, ...fields } = body;
      const payload = { ...fields, ip: request.ip, userAgent: request.headers['user-agent'] ?? '' };
      const id = await db.transaction().execute(async (tx) => {
        if (!(await takeEventSlot(tx, transaction.uuidTrx, maxEvents))) throw eventBoundReached(maxEvents);
        return insertAuditEvent(tx, cipher, {
          uuidTrx: transaction.uuidTrx,
          grantorId: grantor.id,
          paso: body.paso,
          tipo: body.tipo,
          finished: body.finished,
          payload,
        });
      });
      // An acceptance is also the consent evidence the clause and authorization documents cite.
      const acceptance = consentAcceptanceOf(body, { ip: request.ip, userAgent: payload.userAgent }, new Date());
      if (acceptance) {
        await addEvidence(db, cipher, { uuidTrx: transaction.uuidTrx, grantorId: grantor.id, kind: evidenceKind.consent, payload: acceptance });
      }
      request.log.info({ grantorId: grantor.id, uuidTrx: transaction.uuidTrx, paso: body.paso, tipo: body.tipo, eventId: id }, 'audit event stored');
      return { status: 200 as const, payload: { id } };
    },
  });
}

/** The transaction's events and evidence, decrypted for the lender's server (secret key). */
function registerTransactionEventsRoute(app: ZodApp, deps: Deps): void {
  const { config, db, cipher } = deps;
  const list = calls.transactionEvents;
  app.route({
    method: list.method,
    url: list.path,
    schema: {
      summary: list.summary,
      tags: ['events'],
      params: list.params,
      security: [{ [secretKeySecurityScheme]: [] }],
      response: { 200: list.response, ...errorResponses },
    },
    handler: async (request, reply) => {
      // A server-to-server read: the publishable key of the flow's URL is not enough (issue #15).
      const { transaction } = await authorizeServerRead(deps, request, reply, request.params.uuidTrx);
      const [attempts, lifecycle, auditEvents, evidence] = await Promise.all([
        readAttempts(db, transaction.uuidTrx),
        listLifecycleEvents(db, cipher, transaction.uuidTrx),
        listAuditEvents(db, cipher, transaction.uuidTrx),
        listEvidence(db, transaction.uuidTrx),
      ]);
      reply.header('cache-control', 'no-store');
      return {
        status: 200 as const,
        payload: {
          transaction: {
            uuidTrx: transaction.uuidTrx,
            uuidUser: transaction.uuidUser,
            currentStep: transaction.currentStep,
            attempts,
            lockedUntil: transaction.lockUntil,
            createdAt: transaction.createdAt,
            updatedAt: transaction.updatedAt,
          },
          lifecycle: lifecycle.map((e) => ({ ...(e.payload as LifecycleEvent), id: e.id, receivedAt: e.receivedAt })),
          audit: auditEvents.map((e) => ({ ...(e.payload as StoredAuditEvent), id: e.id, receivedAt: e.receivedAt })),
          evidence: evidence.map((e) => ({ id: e.id, kind: e.kind, sha256: e.sha256, createdAt: e.createdAt })),
        },
      };
    },
  });
}
