import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorTexts, realtimeChannel, type RealtimeStartMessage } from '@kyc/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { MediaStreamTrack, RTCDataChannel, RTCRtpTransceiver } from 'werift';
import { MediaRecorder } from 'werift/nonstandard';
import { RefusedError } from '../../domain/refusal.js';
import { HttpError } from '../../http/errors.js';
import { refusalBody } from '../../http/reasons.js';
import type { RealtimeConfig } from './config.js';
import type { RealtimeAuth, RealtimeResult } from './handlers.js';
import { openOfferingPeer, type OfferingPeer } from './peer.js';
import { errorReply, parseChannelMessage } from './protocol.js';

/** A finished recording on disk, before it is stored and decided. */
export interface FinishedRecording {
  connectionId: string;
  path: string;
  durationMs: number;
  tracks: ('video' | 'audio')[];
}

/** What a session needs from the service: authentication and the decision of a finished recording. */
export interface SessionServices {
  /** Throws HttpError (401, 403...) when the key or the transaction is refused. */
  authorize(message: RealtimeStartMessage): Promise<RealtimeAuth>;
  /** Stores the recording as evidence and runs the decision of its type; the file is removed afterwards. */
  deliver(recording: FinishedRecording, message: RealtimeStartMessage, auth: RealtimeAuth): Promise<RealtimeResult>;
  /** The peer failed or closed on its own: the registry forgets it. */
  onPeerGone(id: string): void;
  log: FastifyBaseLogger;
  tempDir: string;
}

type State = 'waiting' | 'recording' | 'finishing' | 'finished' | 'closed';
type Kind = 'video' | 'audio';

// Frame size written in the webm header; decoders use each VP8 key frame's own size (docs/flow.md §9: ideal 640x480).
const recordedSize = { width: 640, height: 480 };
const keyFrameIntervalMs = 1000;

async function channelOpen(channel: RTCDataChannel, timeoutMs: number): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    const subscription = channel.stateChanged.subscribe((state) => state !== 'connecting' && done());
    function done() {
      clearTimeout(timer);
      subscription.unSubscribe();
      resolve();
    }
  });
}

function errorResult(error: unknown): RealtimeResult | undefined {
  if (error instanceof RefusedError) {
    const body = refusalBody(error.refusal);
    return errorReply(body.status, body.message, body.message_client);
  }
  return error instanceof HttpError ? errorReply(error.statusCode, error.message, error.messageClient) : undefined;
}

/**
 * One browser recording over WebRTC (docs/flow.md §7 real-time path). The client's JSON start message is authenticated
 * before anything is written to disk; from then on both tracks go to a webm file (key frames requested every
 * second), and `finish_record` stops it and replies with the decision. Messages are handled one at a time.
 */
export class RecordingSession {
  private state: State = 'waiting';
  private answered = false;
  private readonly tracks = new Map<Kind, MediaStreamTrack>();
  private recorder: MediaRecorder | undefined;
  private recordingStartedAt = 0;
  private keyFrameTimer: NodeJS.Timeout | undefined;
  /** RTP packets received per kind since recording started (the webm has a header even when nothing came). */
  private readonly packets = new Map<Kind, number>();
  private readonly packetCounters: { unSubscribe(): void }[] = [];
  private message: RealtimeStartMessage | undefined;
  private auth: RealtimeAuth | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly file: string;

  private constructor(
    readonly id: string,
    private readonly peer: OfferingPeer,
    private readonly services: SessionServices,
  ) {
    this.file = path.join(services.tempDir, `${id}.webm`);
    for (const [kind, transceiver] of this.transceivers()) {
      transceiver.onTrack.subscribe((track) => {
        this.tracks.set(kind, track);
        if (this.state === 'recording') void this.addTrackToRecorder(kind, track);
      });
    }
    peer.channel.onMessage.subscribe((data) => {
      this.queue = this.queue
        .then(() => this.onMessage(data))
        .catch((err: unknown) => {
          services.log.error({ err, connectionId: id }, 'real-time message handling failed');
        });
    });
    peer.pc.connectionStateChange.subscribe((state) => {
      if (state === 'failed' || state === 'closed') services.onPeerGone(id);
    });
  }

  static async open(id: string, config: RealtimeConfig, services: SessionServices): Promise<RecordingSession> {
    return new RecordingSession(id, await openOfferingPeer(config), services);
  }

  localDescription(): { type: string; sdp: string } {
    const description = this.peer.pc.localDescription;
    if (!description) throw new Error('the offer was not set');
    return { type: description.type, sdp: description.sdp };
  }

  /** The browser's answer; refused (realtime_answered) when one was already applied, invalid_request when werift cannot use it. */
  async acceptAnswer(sdp: string): Promise<void> {
    if (this.answered) throw new RefusedError('realtime_answered', 'This connection already has its answer');
    if (!sdp.startsWith('v=0')) throw new RefusedError('invalid_request', 'Invalid request: body field sdp is not an SDP answer');
    this.answered = true;
    try {
      await this.peer.pc.setRemoteDescription({ type: 'answer', sdp });
    } catch (error) {
      this.answered = false;
      this.services.log.info({ connectionId: this.id, reason: error instanceof Error ? error.message : String(error) }, 'SDP answer refused');
      throw new RefusedError('invalid_request', 'Invalid request: the SDP answer does not match the offer');
    }
  }

  /** Stops everything and removes the temp file, after any decision already under way has replied. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    const wasRecording = this.state === 'recording';
    this.state = 'closed';
    this.stopRecordingTimers();
    if (wasRecording) await this.recorder?.stop().catch(() => undefined);
    await this.peer.pc.close().catch(() => undefined);
    await this.queue;
    await rm(this.file, { force: true });
  }

  private transceivers(): [Kind, RTCRtpTransceiver][] {
    return [
      ['video', this.peer.video],
      ['audio', this.peer.audio],
    ];
  }

  private async reply(text: string): Promise<void> {
    const channel = this.peer.channel;
    // A message can arrive before werift has processed the browser's acknowledgement of the channel.
    if (channel.readyState === 'connecting') await channelOpen(channel, 5000);
    if (channel.readyState === 'open') return channel.send(text);
    this.services.log.warn({ connectionId: this.id, channel: channel.readyState }, 'real-time reply dropped: the data channel is not open');
  }

  private async replyResult(result: RealtimeResult): Promise<void> {
    await this.reply(JSON.stringify({ status: result.status, res: result.res }));
  }

  private async onMessage(data: string | Buffer): Promise<void> {
    if (this.state === 'closed') return;
    const parsed = parseChannelMessage(data);
    switch (parsed.kind) {
      case 'ping':
        return this.reply(realtimeChannel.pong);
      case 'invalid':
        this.services.log.info({ connectionId: this.id, reason: parsed.reason }, 'real-time message refused');
        return this.replyResult(errorReply(400, `Invalid message: ${parsed.reason}`));
      case 'start':
        return this.start(parsed.message);
      case 'finish':
        return this.finish();
    }
  }

  private async start(message: RealtimeStartMessage): Promise<void> {
    if (this.state !== 'waiting') return this.replyResult(errorReply(400, 'Invalid message: the recording has already started'));
    let auth: RealtimeAuth;
    try {
      auth = await this.services.authorize(message);
    } catch (error) {
      const refused = errorResult(error);
      if (!refused) throw error;
      this.services.log.info({ connectionId: this.id, status: refused.status }, 'real-time start refused');
      return this.replyResult(refused);
    }
    if (this.state !== 'waiting') return;
    const kinds = this.receivingKinds();
    if (kinds.length === 0) return this.replyResult(errorReply(400, 'Invalid message: no media track was negotiated'));
    this.message = message;
    this.auth = auth;
    this.recorder = new MediaRecorder({ path: this.file, numOfTracks: kinds.length, ...recordedSize, disableNtp: true });
    this.recorder.onError.subscribe((err) => this.services.log.error({ err, connectionId: this.id }, 'real-time recorder failed'));
    this.recordingStartedAt = Date.now();
    this.state = 'recording';
    for (const kind of kinds) {
      const track = this.tracks.get(kind);
      if (track) await this.addTrackToRecorder(kind, track);
    }
    this.keyFrameTimer = setInterval(() => this.requestKeyFrame(), keyFrameIntervalMs);
    this.services.log.info({ connectionId: this.id, type: message.type, grantorId: auth.grantor.id, uuidTrx: auth.transaction.uuidTrx, tracks: kinds }, 'real-time recording started');
  }

  private async finish(): Promise<void> {
    if (this.state === 'waiting') return this.replyResult(errorReply(400, `Invalid message: ${realtimeChannel.finish} before the start message`));
    if (this.state !== 'recording' || !this.recorder || !this.message || !this.auth) {
      return this.replyResult(errorReply(400, 'Invalid message: the recording is already finished'));
    }
    this.state = 'finishing';
    this.stopRecordingTimers();
    const durationMs = Date.now() - this.recordingStartedAt;
    await this.recorder.stop();
    let result: RealtimeResult;
    try {
      const size = await stat(this.file).then(
        (s) => s.size,
        () => 0,
      );
      const missing = this.receivingKinds().filter((kind) => !this.packets.get(kind));
      if (size === 0 || missing.length > 0) {
        result = errorReply(400, `No ${missing.join(' or ') || 'media'} was received before finish_record`, errorTexts.watchdog);
      } else {
        const recording = { connectionId: this.id, path: this.file, durationMs, tracks: this.receivingKinds() };
        result = await this.services.deliver(recording, this.message, this.auth);
      }
    } catch (error) {
      result = errorResult(error) ?? errorReply(500, 'The recording could not be processed', errorTexts.serviceUnavailable);
      if (result.status >= 500) this.services.log.error({ err: error, connectionId: this.id }, 'real-time recording failed');
    } finally {
      await rm(this.file, { force: true });
    }
    if (this.state === 'finishing') this.state = 'finished';
    this.services.log.info({ connectionId: this.id, type: this.message.type, status: result.status, durationMs }, 'real-time recording answered');
    this.replyResult(result);
  }

  /** Kinds the browser agreed to send (the hologram may come without a microphone). */
  private receivingKinds(): Kind[] {
    return this.transceivers()
      .filter(([, transceiver]) => transceiver.currentDirection === 'recvonly' || transceiver.currentDirection === 'sendrecv')
      .map(([kind]) => kind);
  }

  private async addTrackToRecorder(kind: Kind, track: MediaStreamTrack): Promise<void> {
    this.packets.set(kind, 0);
    this.packetCounters.push(track.onReceiveRtp.subscribe(() => this.packets.set(kind, (this.packets.get(kind) ?? 0) + 1)));
    try {
      await this.recorder?.addTrack(track);
      if (kind === 'video') this.requestKeyFrame();
    } catch (err) {
      this.services.log.error({ err, connectionId: this.id, kind }, 'real-time track could not be recorded');
    }
  }

  private requestKeyFrame(): void {
    const track = this.tracks.get('video');
    if (track?.ssrc === undefined) return;
    this.peer.video.receiver.sendRtcpPLI(track.ssrc).catch(() => undefined);
  }

  private stopRecordingTimers(): void {
    if (this.keyFrameTimer) clearInterval(this.keyFrameTimer);
    this.keyFrameTimer = undefined;
    for (const counter of this.packetCounters.splice(0)) counter.unSubscribe();
  }
}
