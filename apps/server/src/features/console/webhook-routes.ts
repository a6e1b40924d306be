import {
  consoleDelivery,
  consoleDeliveryPage,
  consoleDeliveryQuery,
  consoleFieldErrors,
  consolePaths,
  consoleWebhookEndpointCreate,
  consoleWebhookEndpointCreated,
  consoleWebhookEndpoints,
} from '@kyc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ZodApp } from '../../http/deps.js';
import { HttpError } from '../../http/errors.js';
import { readJobPayload } from '../../jobs/queue.js';
import { listEndpointDeliveries } from '../webhooks/deliveries.js';
import { enqueueDelivery, webhookEventTypes, type WebhookEventType, type WebhookJobPayload } from '../webhooks/events.js';
import { deactivateEndpoint, findEndpoint, findQueued, insertEndpoint, listEndpoints, type QueuedDelivery, type WebhookEndpoint } from '../webhooks/store.js';
import { webhookUrlProblem } from '../webhooks/cli.js';
import { generateWebhookSecret } from '../webhooks/signing.js';
import { fieldErrors, type ConsoleKit } from './kit.js';
import * as store from './store.js';

const uuid = z.string().max(64);
const endpointNotFound = () => new HttpError(404, 'Webhook endpoint not found', 'No encontramos ese destino de webhooks.');
const deliveryNotFound = () => new HttpError(404, 'Webhook delivery not found', 'No encontramos ese envío.');

/** An endpoint as the console shows it: the events it receives (every one when it chose none), never its secret. */
const wireEndpoint = (e: WebhookEndpoint) => ({ id: e.id, url: e.url, events: (e.events ?? [...webhookEventTypes]) as WebhookEventType[], active: e.active, createdAt: e.createdAt });

/** The log row of a replay just queued. */
function queuedReplay(jobId: string, queued: QueuedDelivery, replayOf: string, now: Date) {
  const at = now.toISOString();
  const { eventId, eventType, folio } = queued;
  return { id: jobId, eventId, eventType, folio, attempts: 0, lastStatusCode: null, lastDurationMs: null, lastError: null, nextRetryAt: at, status: 'pending' as const, createdAt: at, replayOf };
}

/**
 * The grantor's webhook endpoints and their delivery log, and the replay of one delivery (issue #16). Admins, and a
 * platform operator for the grantor named by `grantorId`: the log tells which folios ended when, and a replay sends
 * data to the lender's systems. An endpoint or a delivery
 * of another grantor answers exactly like a missing one.
 */
export function registerWebhookRoutes(app: ZodApp, kit: ConsoleKit): void {
  const { db, cipher, errors } = kit;

  const refusal = { action: 'webhook_refused', message: 'Only an admin manages webhooks', text: 'Solo un administrador puede ver y reenviar webhooks.' } as const;
  /** The grantor's admin, or a platform operator for the grantor named by grantorId; anyone else 403, audited. */
  const admin = (request: FastifyRequest, reply: FastifyReply, csrf = false) => kit.signedInAdmin(request, reply, csrf, refusal);

  app.get(consolePaths.webhooks, { schema: { hide: true, response: { 200: consoleWebhookEndpoints, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply);
    const endpoints = await listEndpoints(db, grantorId);
    await store.audit(db, { action: 'webhooks_viewed', userId: user.id, grantorId, ip: request.ip });
    return { endpoints: endpoints.map(wireEndpoint) };
  });

  app.get(
    consolePaths.webhookDeliveries,
    { schema: { hide: true, params: z.object({ endpointId: uuid }), querystring: consoleDeliveryQuery, response: { 200: consoleDeliveryPage, ...errors } } },
    async (request, reply) => {
      const { user, grantorId } = await admin(request, reply);
      const endpoint = await findEndpoint(db, request.params.endpointId.toLowerCase());
      if (!endpoint || endpoint.grantorId !== grantorId) throw endpointNotFound();
      const page = await listEndpointDeliveries(db, endpoint.id, { before: request.query.cursor, limit: request.query.limit });
      await store.audit(db, { action: 'webhook_deliveries_viewed', userId: user.id, grantorId, ip: request.ip, detail: { endpointId: endpoint.id, page: Boolean(request.query.cursor) } });
      return { deliveries: page.deliveries, nextCursor: page.next ?? null };
    },
  );

  app.post(consolePaths.deliveryReplay, { schema: { hide: true, params: z.object({ deliveryId: uuid }), response: { 200: consoleDelivery, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const deliveryId = request.params.deliveryId.toLowerCase();
    const queued = await findQueued(db, deliveryId);
    if (!queued || queued.grantorId !== grantorId) {
      await store.audit(db, { action: 'webhook_refused', userId: user.id, grantorId, ip: request.ip, detail: { deliveryId, reason: 'not_found' } });
      throw deliveryNotFound();
    }
    const endpoint = await findEndpoint(db, queued.endpointId);
    if (!endpoint?.active) throw new HttpError(409, 'The endpoint was removed', 'Ese destino ya no está activo: no se le envía nada.');
    const payload = (await readJobPayload(db, cipher, deliveryId)) as WebhookJobPayload | undefined;
    if (!payload) throw new HttpError(410, 'The delivery was deleted with its transaction', 'Ese envío ya no existe: sus datos fueron eliminados.');
    const now = new Date();
    // The same event (id and body); the delivery job signs it with a new timestamp when it sends it.
    const jobId = await db.transaction().execute(async (tx) => {
      const id = await enqueueDelivery(tx, cipher, { grantorId, uuidTrx: queued.uuidTrx, endpointId: endpoint.id, event: payload.event, replayOf: deliveryId }, now);
      await store.audit(tx, { action: 'webhook_replayed', userId: user.id, grantorId, ip: request.ip, detail: { deliveryId, replay: id, eventId: queued.eventId, endpointId: endpoint.id } }, now);
      return id;
    });
    return queuedReplay(jobId, queued, deliveryId, now);
  });

  app.post(
    consolePaths.webhooks,
    { schema: { hide: true, body: consoleWebhookEndpointCreate, response: { 200: consoleWebhookEndpointCreated, ...errors, 400: consoleFieldErrors.or(errors[400]) } } },
    async (request, reply) => {
      const { user, grantorId } = await admin(request, reply, true);
      const { url, events } = request.body;
      // The CLI's rule: https, or http to this machine only while integrating.
      if (webhookUrlProblem(url)) return fieldErrors(reply, { url: 'Debe ser una dirección https:// (http:// solo a localhost mientras integras).' });
      if (events.length === 0) return fieldErrors(reply, { events: 'Elige al menos un evento.' });
      const secret = generateWebhookSecret();
      const chosen = webhookEventTypes.filter((t) => events.includes(t));
      // Every event chosen is stored as null (every event, including ones added later).
      const endpointId = await insertEndpoint(db, cipher, { grantorId, url, secret, events: chosen.length === webhookEventTypes.length ? null : chosen });
      await store.audit(db, { action: 'webhook_endpoint_added', userId: user.id, grantorId, ip: request.ip, detail: { endpointId, url, events: chosen } });
      return { endpoint: wireEndpoint((await findEndpoint(db, endpointId))!), secret };
    },
  );

  app.delete(consolePaths.webhook, { schema: { hide: true, params: z.object({ endpointId: uuid }), response: { 200: consoleWebhookEndpoints, ...errors } } }, async (request, reply) => {
    const { user, grantorId } = await admin(request, reply, true);
    const endpoint = await findEndpoint(db, request.params.endpointId.toLowerCase());
    if (!endpoint || endpoint.grantorId !== grantorId) throw endpointNotFound();
    if (!(await deactivateEndpoint(db, endpoint.id))) throw new HttpError(409, 'The endpoint was already removed', 'Ese destino ya estaba desactivado.');
    await store.audit(db, { action: 'webhook_endpoint_removed', userId: user.id, grantorId, ip: request.ip, detail: { endpointId: endpoint.id, url: endpoint.url } });
    return { endpoints: (await listEndpoints(db, grantorId)).map(wireEndpoint) };
  });
}
