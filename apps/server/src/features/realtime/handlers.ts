import { errorTexts, realtimeRecordingTypes, type RealtimeRecordingType, type RealtimeStartMessage } from '@kyc/contracts';
import type { TransactionOwnership } from '../../http/auth.js';
import type { LinkAuth } from '../results/link-video.js';
import type { Grantor } from '../../store/grantors.js';

/** A recording the real-time media server finished, as handed to the decision of its type. */
export interface RealtimeRecording {
  /** The webm on local disk; it exists until the handler's promise settles, then it is removed. */
  path: string;
  mimeType: 'video/webm';
  /** The client's start message (validated, authenticated). */
  message: RealtimeStartMessage;
  /** From the start of recording to finish_record. */
  durationMs: number;
  /** The tracks that were negotiated to arrive (the hologram may come without audio). */
  tracks: ('video' | 'audio')[];
  /** The same bytes, already stored encrypted in the blob store and recorded as evidence (realtimeRecording). */
  blobKey: string;
  sha256: string;
  size: number;
  evidenceId: string;
}

/** Who sent it: the grantor of the message's key and the transaction of transaccion/cliente. */
export interface RealtimeAuth {
  grantor: Grantor;
  transaction: TransactionOwnership;
  /** VIDEO_TOKEN_PDF: the result link whose credential came in `key` (the link flow has no api key). */
  link?: LinkAuth;
}

/**
 * What the server replies on the data channel: status (200, 400, 404, 500 as in docs/flow.md §7, or 401/403 when the
 * key or transaction is refused) and res, the body the matching HTTP call would answer:
 * `{ status: 200, payload: { match, liveness } }` or `{ status, message, message_client? }`.
 */
export interface RealtimeResult {
  status: number;
  res: unknown;
}

/**
 * The decision of one recording type (face video for VIDEO_TOKEN / VIDEO_TOKEN_PDF, hologram for HOLOGRAMA).
 * It enforces its own attempts and lock, writes its own decision evidence (it may reference `blobKey`), and may
 * throw a RefusedError (its status and texts from http/reasons.ts) or an HttpError of the credential checks, either
 * replied as `{ status, res: { status, message, message_client } }`.
 */
export type RecordingHandler = (recording: RealtimeRecording, auth: RealtimeAuth) => Promise<RealtimeResult>;
export type RecordingHandlers = Record<RealtimeRecordingType, RecordingHandler>;

/** Replies 500 with the spec's "service unavailable" text: never a made-up result. */
export const unavailableHandler: RecordingHandler = async (recording) => ({
  status: 500,
  res: {
    status: 500,
    message: `No decision is installed for ${recording.message.type} recordings`,
    message_client: errorTexts.serviceUnavailable,
  },
});

/** A handler for every type: the ones given, `unavailableHandler` for the rest. */
export function recordingHandlers(available: Partial<RecordingHandlers> = {}): RecordingHandlers {
  return Object.fromEntries(realtimeRecordingTypes.map((type) => [type, available[type] ?? unavailableHandler])) as RecordingHandlers;
}
