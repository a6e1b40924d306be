import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calls, errorTexts, type RealtimeStartMessage } from '@kyc/contracts';
import { authorizeTransaction } from '../../http/auth.js';
import { assertGrantorInOrder } from '../events/journey-order.js';
import type { Deps, ZodApp } from '../../http/deps.js';
import { errorResponses, HttpError } from '../../http/errors.js';
import { resultLinkContext } from '../results/routes.js';
import { authorizeLink } from '../results/link-video.js';
import type { LinkContext } from '../results/links.js';
import type { RealtimeAuth, RecordingHandlers } from './handlers.js';
import { storeRecording } from './recording-store.js';
import { ConnectionRegistry } from './registry.js';
import { RecordingSession, type FinishedRecording, type SessionServices } from './session.js';

export interface RealtimeOptions {
  /** The decision of each recording type; see recordingHandlers(). */
  handlers: RecordingHandlers;
}

/** The result-link flow's recording: `key` carries the link credential; transaccion and cliente must be the link's. */
async function authorizeLinkMessage(links: LinkContext, message: RealtimeStartMessage): Promise<RealtimeAuth> {
  const link = await authorizeLink(links, message.key, message.cliente);
  if (message.transaccion.toLowerCase() !== link.link.uuidTrx) throw new HttpError(403, 'The result link belongs to another transaction', errorTexts.badUrl);
  const { uuidTrx, uuidUser, grantorId } = link.link;
  return { grantor: link.grantor, transaction: { uuidTrx, uuidUser, grantorId }, link };
}

/** Who may open a connection: the transaction of the headers, by its grantor's key or by the result link's credential. */
async function authorizeConnection(
  store: Pick<Deps, 'db' | 'caches'>,
  links: LinkContext,
  headers: { transaccion: string; cliente: string; apikey?: string | undefined; 'x-consumer-custom-id'?: string | undefined },
): Promise<RealtimeAuth> {
  const credential = headers['x-consumer-custom-id'];
  if (credential) {
    return authorizeLinkMessage(links, { key: credential, transaccion: headers.transaccion, cliente: headers.cliente } as RealtimeStartMessage);
  }
  if (!headers.apikey) throw new HttpError(401, 'The apikey header (or the result link credential in X-Consumer-Custom-ID) is required', errorTexts.badUrl);
  const { grantor, transaction } = await authorizeTransaction(store, { apikey: headers.apikey, transaccion: headers.transaccion, cliente: headers.cliente });
  return { grantor, transaction };
}

const unknownConnection = (id: string) => new HttpError(404, `Unknown real-time connection ${id} (closed, expired or never created)`);

/**
 * The real-time media server of docs/flow.md §7: `POST /record/connections` (offer), `.../{id}/remote-description`
 * (answer), `DELETE /record/connections/{id}`. Recordings live in a private temp folder only until they are
 * stored encrypted; everything is closed with the app.
 */
export function registerRealtimeRoutes(app: ZodApp, deps: Deps, options: RealtimeOptions): ConnectionRegistry<RecordingSession> {
  const { config, db } = deps;
  const log = app.log.child({ module: 'realtime' });
  // mkdtemp creates the folder with mode 0700: recordings are biometric data.
  const tempDir = mkdtempSync(path.join(tmpdir(), 'kyc-realtime-'));
  const registry = new ConnectionRegistry<RecordingSession>(config.realtime, log);
  const links = resultLinkContext(deps);

  const services: SessionServices = {
    log,
    tempDir,
    async authorize(message: RealtimeStartMessage): Promise<RealtimeAuth> {
      if (message.type === 'VIDEO_TOKEN_PDF') return authorizeLinkMessage(links, message);
      const { grantor, transaction } = await authorizeTransaction(deps, {
        apikey: message.key,
        transaccion: message.transaccion,
        cliente: message.cliente,
      });
      return { grantor, transaction };
    },
    async deliver(recording: FinishedRecording, message: RealtimeStartMessage, auth: RealtimeAuth) {
      const stored = await storeRecording(deps, recording, message.type, auth);
      log.info({ connectionId: recording.connectionId, evidenceId: stored.evidenceId, size: stored.size }, 'real-time recording stored');
      const handler = options.handlers[message.type];
      return handler({ path: recording.path, mimeType: 'video/webm', message, durationMs: recording.durationMs, tracks: recording.tracks, ...stored }, auth);
    },
    onPeerGone(id: string) {
      void registry.close(id);
    },
  };

  // preClose: before the database and blob store close (onClose hooks), so a decision under way can finish.
  app.addHook('preClose', async () => registry.closeAll());
  app.addHook('onClose', async () => rmSync(tempDir, { recursive: true, force: true }));

  const tags = ['real-time'];
  const create = calls.recordConnections;
  app.route({
    method: create.method,
    url: create.path,
    schema: { summary: create.summary, tags, headers: create.headers, response: { 200: create.response, ...errorResponses } },
    handler: async (request, reply) => {
      const owner = await authorizeConnection(deps, links, request.headers);
      const uuidTrx = owner.transaction.uuidTrx;
      // The start message on the data channel must name the transaction the connection was opened for.
      const bound: SessionServices = {
        ...services,
        async authorize(message) {
          const auth = await services.authorize(message);
          if (auth.transaction.uuidTrx !== uuidTrx) throw new HttpError(403, 'The start message names another transaction than its connection', errorTexts.badUrl);
          // The recording is only received once the steps before it are recorded (domain/journey-order.ts).
          if (message.type !== 'VIDEO_TOKEN_PDF') {
            await assertGrantorInOrder(deps, auth.grantor, message.key, uuidTrx, message.type === 'HOLOGRAMA' ? 'hologram' : 'faceVideo');
          }
          return auth;
        },
      };
      const { id, session, replaced } = await registry.create((newId) => RecordingSession.open(newId, config.realtime, bound), { uuidTrx, ip: request.ip });
      log.info({ connectionId: id, uuidTrx, open: registry.size, ...(replaced ? { replaced } : {}) }, 'real-time connection created');
      reply.header('cache-control', 'no-store');
      return { id, localDescription: session.localDescription() };
    },
  });

  const answer = calls.recordRemoteDescription;
  app.route({
    method: answer.method,
    url: answer.path,
    schema: { summary: answer.summary, tags, params: answer.params, body: answer.body, response: { 200: answer.response, ...errorResponses } },
    handler: async (request) => {
      const session = registry.get(request.params.id);
      if (!session) throw unknownConnection(request.params.id);
      await session.acceptAnswer(request.body.sdp);
      return { status: 200 as const };
    },
  });

  const close = calls.recordClose;
  app.route({
    method: close.method,
    url: close.path,
    schema: { summary: close.summary, tags, params: close.params, response: { 200: close.response, ...errorResponses } },
    handler: async (request) => {
      if (!(await registry.close(request.params.id))) throw unknownConnection(request.params.id);
      log.info({ connectionId: request.params.id }, 'real-time connection closed by the client');
      return { status: 200 as const };
    },
  });

  return registry;
}
