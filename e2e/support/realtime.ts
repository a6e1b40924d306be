import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { migrateToLatest } from '../../apps/server/src/migrations.js';
import { createDatabase } from '../../apps/server/src/store/db.js';
import { acceptConsents, journeyConsents, usableFront } from '../../apps/server/test/support/journey.js';
import { testScheduleEnv } from './code-timing.js';
import type { ZodApp } from '../../apps/server/src/http/deps.js';
import type { RecordingHandlers } from '../../apps/server/src/features/realtime/index.js';

/**
 * The real-time media server's client side for browser tests (docs/flow.md §7): the server runs in the test's process so a
 * test can install decisions of its own; the page code below is what the flow does (apps/web/src/media/realtime.ts).
 */
export interface RealtimeServer {
  app: ZodApp;
  url: string;
  dataDir: string;
  /** Records the steps before the face video (consents, a usable ID front) for a start message's transaction. */
  afterConsents(message: { key: string; transaccion: string; cliente: string }): Promise<void>;
  close(): Promise<void>;
}

export async function startRealtimeServer(recordingHandlers: Partial<RecordingHandlers> = {}): Promise<RealtimeServer> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'kyc-e2e-realtime-'));
  const dataDir = path.join(work, 'data');
  // NODE_ENV=test with the test-only fixed digit schedule (code-timing.ts): the generated readings follow it.
  const config = loadConfig({ NODE_ENV: 'test', ...testScheduleEnv, DATA_DIR: dataDir, HOST: '127.0.0.1', LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'error', WEB_DIST: path.join(work, 'no-web') });
  const db = createDatabase(config.database);
  await migrateToLatest(db);
  const app = await buildApp(config, { recordingHandlers, db });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    url,
    dataDir,
    async afterConsents(message) {
      const headers = { apikey: message.key, transaccion: message.transaccion, cliente: message.cliente };
      await acceptConsents(app, headers, journeyConsents);
      await usableFront({ db, config }, headers);
    },
    async close() {
      await app.close();
      await db.destroy().catch(() => undefined);
      await rm(work, { recursive: true, force: true });
    },
  };
}

export function startMessage(overrides: Record<string, unknown> = {}) {
  const cliente = randomUUID();
  return {
    uuid: cliente,
    token: '4729',
    bucket: 'videos',
    ios: false,
    mobilesafari: false,
    isIPad: false,
    type: 'VIDEO_TOKEN',
    isMobile: false,
    key: 'demo',
    transaccion: randomUUID(),
    cliente,
    service: 'videotoken-embedding',
    side: 'front',
    isPassport: false,
    identificacion_pasaporte: 'false',
    ...overrides,
  };
}

export interface Session {
  /**
   * Texts sent on the channel in order (reply: whether the server answers it); numbers are pauses in ms;
   * 'camera' opens the camera at that point (otherwise it is open before the connection is answered).
   */
  steps: ({ send: string; reply: boolean } | number | 'camera')[];
  audio: boolean;
}

export const send = (text: string) => ({ send: text, reply: true });
/** A start message the server accepts: it answers only at finish_record. */
export const start = (message: object) => ({ send: JSON.stringify(message), reply: false });
export const finish = send('finish_record');

/**
 * The client side of the protocol, as the flow runs it: camera (and microphone), POST the connection, answer
 * with the tracks sent, wait for the 'ping-pong' channel, send the steps, collect every reply, close.
 */
export async function record(on: Page, session: Session): Promise<{ id: string; replies: string[] }> {
  return on.evaluate(async ({ steps, audio }) => {
    let stream: MediaStream | undefined;
    const openCamera = async () => {
      stream = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 }, audio });
      for (const transceiver of pc.getTransceivers()) {
        const track = stream.getTracks().find((t) => t.kind === transceiver.receiver.track.kind);
        if (track) await transceiver.sender.replaceTrack(track);
      }
    };
    // The connection is opened for the transaction of the session's start message: with its api key, or with the
    // result link's credential (a signed token) for VIDEO_TOKEN_PDF, as the flow does.
    const startStep = steps.find((s) => typeof s === 'object' && !s.reply) as { send: string } | undefined;
    const opening = startStep ? (JSON.parse(startStep.send) as { key: string; transaccion: string; cliente: string; type: string }) : undefined;
    const headers: Record<string, string> = opening
      ? {
          transaccion: opening.transaccion,
          cliente: opening.cliente,
          ...(opening.type === 'VIDEO_TOKEN_PDF' && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(opening.key) ? { 'x-consumer-custom-id': opening.key } : { apikey: opening.key }),
        }
      : {};
    const created = await fetch('/record/connections', { method: 'POST', headers });
    if (!created.ok) throw new Error(`POST /record/connections: ${created.status}`);
    const { id, localDescription } = (await created.json()) as { id: string; localDescription: RTCSessionDescriptionInit };
    const pc = new RTCPeerConnection({ iceServers: [] });
    const channel = new Promise<RTCDataChannel>((resolve) => {
      pc.ondatachannel = (event) => {
        const dc = event.channel;
        if (dc.readyState === 'open') resolve(dc);
        else dc.onopen = () => resolve(dc);
      };
    });
    await pc.setRemoteDescription(localDescription);
    for (const transceiver of pc.getTransceivers()) {
      const kind = transceiver.receiver.track.kind;
      transceiver.direction = kind === 'video' || audio ? 'sendonly' : 'inactive';
    }
    if (!steps.includes('camera')) await openCamera();
    await pc.setLocalDescription(await pc.createAnswer());
    await new Promise<void>((resolve) => {
      if (pc.iceGatheringState === 'complete') return resolve();
      pc.onicegatheringstatechange = () => pc.iceGatheringState === 'complete' && resolve();
    });
    const answered = await fetch(`/record/connections/${id}/remote-description`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'answer', sdp: pc.localDescription?.sdp }),
    });
    if (!answered.ok) throw new Error(`remote-description: ${answered.status} ${await answered.text()}`);
    const dc = await channel;
    const replies: string[] = [];
    let waiting: (() => void) | undefined;
    dc.onmessage = (event) => {
      replies.push(String(event.data));
      waiting?.();
    };
    const nextReply = (count: number) =>
      new Promise<void>((resolve, reject) => {
        if (replies.length >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`no reply ${count} within 30 s (got ${JSON.stringify(replies)})`)), 30_000);
        waiting = () => {
          if (replies.length < count) return;
          clearTimeout(timer);
          resolve();
        };
      });
    let expected = 0;
    for (const step of steps) {
      if (typeof step === 'number') {
        await new Promise((resolve) => setTimeout(resolve, step));
        continue;
      }
      if (step === 'camera') {
        await openCamera();
        continue;
      }
      dc.send(step.send);
      if (step.reply) await nextReply(++expected);
    }
    pc.close();
    for (const track of stream?.getTracks() ?? []) track.stop();
    await fetch(`/record/connections/${id}`, { method: 'DELETE' });
    return { id, replies };
  }, session);
}
