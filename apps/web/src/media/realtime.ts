/**
 * Client of the real-time media server (docs/flow.md §7 "Real-time media server"): the server offers a peer connection
 * (POST /record/connections → {id, localDescription}), the browser answers (POST .../remote-description),
 * sends its camera and microphone, and talks over the data channel 'ping-pong': first a JSON message naming the
 * capture, later the text finish_record; the server replies with JSON {status, res}. DELETE closes it.
 * The protocol parts are pure and the browser objects are injected, so they are unit-tested without a browser.
 */
import { isIOS, isMobileDevice, type PlatformHints } from './platform';

export const dataChannelLabel = 'ping-pong';
export const finishSignal = 'finish_record';

export type RealtimeCaptureType = 'VIDEO_TOKEN' | 'VIDEO_TOKEN_PDF' | 'HOLOGRAMA';

/** The data channel's first message (docs/flow.md §7 field names). created and expire identify the issued code. */
export interface RealtimeStartMessage {
  uuid: string;
  token: string;
  created: string;
  expire: string;
  bucket: string;
  ios: boolean;
  mobilesafari: boolean;
  isIPad: boolean;
  type: RealtimeCaptureType;
  isMobile: boolean;
  key: string;
  transaccion: string;
  cliente: string;
  service: string;
  side: string;
  isPassport: boolean;
  identificacion_pasaporte: 'true' | 'false';
  /** project: the camera's label and settings (JSON, media/camera-info.ts), as the recorded upload's info_camara. */
  info_camara?: string;
}

export interface StartMessageInput {
  uuidUser: string;
  uuidTrx: string;
  apikey: string;
  /** The code shown to the user, with its creation and expiry. */
  code: { code: string; created: string; expire: string };
  type: RealtimeCaptureType;
  service: string;
  passport: boolean;
  platform: PlatformHints;
  /** The ID side (hologram only). */
  side?: string;
  /** The camera as JSON (face video only). */
  camera?: string | undefined;
}

export function isIPad(hints: PlatformHints): boolean {
  return /iPad/.test(hints.userAgent) || (hints.platform === 'MacIntel' && (hints.maxTouchPoints ?? 0) > 1);
}

/** Safari itself on iOS (not Chrome, Firefox or Edge for iOS, which carry their own tokens). */
export function isMobileSafari(hints: PlatformHints): boolean {
  return isIOS(hints) && /Safari/.test(hints.userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(hints.userAgent);
}

/** Videos of the face token go to this storage bucket (docs/flow.md §9 "Storage bucket ... also for videos"). */
export const videoBucket = 'videos';

export function startMessage(input: StartMessageInput): RealtimeStartMessage {
  return {
    uuid: input.uuidUser,
    token: input.code.code,
    created: input.code.created,
    expire: input.code.expire,
    bucket: videoBucket,
    ios: isIOS(input.platform),
    mobilesafari: isMobileSafari(input.platform),
    isIPad: isIPad(input.platform),
    type: input.type,
    isMobile: isMobileDevice(input.platform),
    key: input.apikey,
    transaccion: input.uuidTrx,
    cliente: input.uuidUser,
    service: input.service,
    side: input.side ?? '',
    isPassport: input.passport,
    identificacion_pasaporte: input.passport ? 'true' : 'false',
    ...(input.camera ? { info_camara: input.camera } : {}),
  };
}

/** The server's reply: status 200, 400, 404 or 500 and res (payload.match / liveness, message_client). */
export interface RealtimeReply {
  status: number;
  res: {
    payload?: { match?: boolean; liveness?: boolean | string; documentLink?: string };
    message?: string;
    message_client?: string;
  };
}

/** A data-channel message as a reply, or null when it is not one (pings and other chatter are ignored). */
export function parseReply(data: unknown): RealtimeReply | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { status, res } = value as { status?: unknown; res?: unknown };
  if (typeof status !== 'number' || !Number.isInteger(status)) return null;
  const body = (typeof res === 'object' && res !== null ? res : {}) as Record<string, unknown>;
  const reply: RealtimeReply = { status, res: {} };
  if (typeof body.message === 'string') reply.res.message = body.message;
  if (typeof body.message_client === 'string') reply.res.message_client = body.message_client;
  const payload = body.payload;
  if (typeof payload === 'object' && payload !== null) {
    const p = payload as Record<string, unknown>;
    reply.res.payload = {};
    if (typeof p.match === 'boolean') reply.res.payload.match = p.match;
    if (typeof p.liveness === 'boolean' || typeof p.liveness === 'string') reply.res.payload.liveness = p.liveness;
    if (typeof p.documentLink === 'string') reply.res.payload.documentLink = p.documentLink;
  }
  return reply;
}

/** The three HTTP calls of the media server (the app passes its contract-bound client). */
export interface RealtimeSignalling {
  open(): Promise<{ id: string; localDescription: RTCSessionDescriptionInit }>;
  answer(id: string, description: { type: 'answer'; sdp: string }): Promise<void>;
  close(id: string): Promise<void>;
}

/** What connectRealtime needs of RTCPeerConnection (the browser's, or a test double). */
export interface PeerLike {
  ondatachannel: ((event: { channel: ChannelLike }) => void) | null;
  readonly iceGatheringState: string;
  readonly localDescription: { type: string; sdp: string } | null;
  readonly connectionState?: string;
  onicegatheringstatechange: (() => void) | null;
  onconnectionstatechange?: (() => void) | null;
  setRemoteDescription(description: RTCSessionDescriptionInit): Promise<void>;
  addTrack(track: MediaStreamTrack, stream: MediaStream): unknown;
  createAnswer(): Promise<RTCSessionDescriptionInit>;
  setLocalDescription(description: RTCSessionDescriptionInit): Promise<void>;
  close(): void;
}

export interface ChannelLike {
  readonly label: string;
  readonly readyState: string;
  onopen: (() => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: (() => void) | null;
  send(data: string): void;
}

export interface RealtimeSession {
  /** Sends the start message: the server records from now on (the flow's tick 0). */
  start(): void;
  /** Sends finish_record: the server stops recording and judges the capture. */
  finish(): void;
  /** The server's reply; rejects when the connection drops first. */
  readonly reply: Promise<RealtimeReply>;
  /** Closes the peer connection and asks the server to drop it. */
  close(): void;
}

export interface ConnectOptions {
  stream: MediaStream;
  signalling: RealtimeSignalling;
  message: RealtimeStartMessage;
  createPeer?: () => PeerLike;
  /** ICE gathering and the data channel's opening must finish within this time. */
  setupTimeoutMs?: number;
}

export class RealtimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RealtimeError';
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new RealtimeError(`${what} did not happen within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new RealtimeError(String(error)));
      },
    );
  });
}

function gatheringComplete(peer: PeerLike): Promise<void> {
  if (peer.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    peer.onicegatheringstatechange = () => {
      if (peer.iceGatheringState === 'complete') resolve();
    };
  });
}

/**
 * Answers the server's offer with the stream's tracks and waits for the data channel to open. The start message
 * goes out with start(): the server times the challenge from it, so the flow sends it when the reading begins.
 */
export async function connectRealtime(options: ConnectOptions): Promise<RealtimeSession> {
  const timeout = options.setupTimeoutMs ?? 10_000;
  const { id, localDescription } = await options.signalling.open();
  const peer = options.createPeer ? options.createPeer() : (new RTCPeerConnection({ iceServers: [] }) as unknown as PeerLike);
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    peer.close();
    options.signalling.close(id).catch(() => undefined);
  };

  let settleReply: { resolve: (reply: RealtimeReply) => void; reject: (error: Error) => void } | null = null;
  const reply = new Promise<RealtimeReply>((resolve, reject) => {
    settleReply = { resolve, reject };
  });
  // A caller that closes without waiting for the reply must not see an unhandled rejection.
  reply.catch(() => undefined);

  const channel = new Promise<ChannelLike>((resolve) => {
    peer.ondatachannel = ({ channel: incoming }) => {
      if (incoming.label !== dataChannelLabel) return;
      incoming.onmessage = ({ data }) => {
        const parsed = parseReply(data);
        if (parsed) settleReply?.resolve(parsed);
      };
      incoming.onclose = () => settleReply?.reject(new RealtimeError('the data channel closed before the reply'));
      if (incoming.readyState === 'open') resolve(incoming);
      else incoming.onopen = () => resolve(incoming);
    };
  });
  peer.onconnectionstatechange = () => {
    if (peer.connectionState === 'failed' || peer.connectionState === 'closed') {
      settleReply?.reject(new RealtimeError(`the peer connection is ${peer.connectionState}`));
    }
  };

  try {
    await peer.setRemoteDescription(localDescription);
    for (const track of options.stream.getTracks()) peer.addTrack(track, options.stream);
    await peer.setLocalDescription(await peer.createAnswer());
    await withTimeout(gatheringComplete(peer), timeout, 'ICE gathering');
    const answer = peer.localDescription;
    if (!answer) throw new RealtimeError('no local description after the answer');
    await options.signalling.answer(id, { type: 'answer', sdp: answer.sdp });
    const open = await withTimeout(channel, timeout, `the '${dataChannelLabel}' data channel`);
    return {
      start: () => open.send(JSON.stringify(options.message)),
      finish: () => open.send(finishSignal),
      reply,
      close,
    };
  } catch (error) {
    close();
    throw error;
  }
}
