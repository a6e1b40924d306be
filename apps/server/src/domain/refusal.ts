/**
 * Why the service refuses a request, in the domain's words. Services and rules return (or throw) a refusal with its
 * reason, never an HTTP status: the HTTP layer maps each reason to its status (`http/reasons.ts`, one table).
 * `message` is the English explanation sent as `message`; `messageClient` the user's Spanish text when the caller
 * decides it (else the table's text for the reason, if any).
 */
export type Reason =
  // The request itself.
  | 'invalid_request'
  | 'payload_too_large'
  | 'unsupported_media_type'
  // The transaction and its attempts.
  | 'transaction_unknown'
  | 'transaction_other_owner'
  | 'transaction_locked'
  | 'transaction_finished'
  | 'transaction_cancelled'
  | 'transaction_erased'
  | 'transaction_restricted'
  | 'journey_out_of_order'
  | 'attempts_exhausted'
  | 'server_busy'
  | 'service_closing'
  | 'connections_per_ip'
  | 'realtime_answered'
  // The face video.
  | 'video_too_long'
  | 'video_unusable'
  | 'video_decoder_missing'
  | 'video_decode_timeout'
  | 'video_unreadable'
  | 'video_code_unknown'
  | 'video_code_used'
  | 'video_code_expired'
  | 'holder_photo_missing'
  | 'face_capture_problem'
  | 'face_no_match'
  | 'face_not_live'
  | 'face_spoof'
  | 'video_source_refused'
  // Comparing two faces (POST /v1/faces/compare, a server-to-server call: no client text unless the refusal carries one).
  | 'compare_face_missing'
  | 'compare_faces_several'
  | 'compare_image_too_small'
  | 'compare_video_timeout'
  | 'compare_decoder_missing'
  // Result links.
  | 'link_credential_missing'
  | 'link_malformed'
  | 'link_tampered'
  | 'link_mismatch'
  | 'link_other_user'
  | 'link_unknown'
  | 'link_expired'
  | 'link_consumed'
  | 'link_not_verified'
  | 'link_grantor_inactive'
  // Redo links (a review's `redo`).
  | 'redo_other_step'
  | 'redo_step_incomplete'
  | 'redo_not_allowed';

export interface Refusal {
  reason: Reason;
  message: string;
  messageClient?: string;
  /** A lock's end (ISO 8601), sent as locked_until. */
  lockedUntil?: string;
}

/** A refusal thrown through code that returns a value otherwise; the HTTP layer's error handler answers it. */
export class RefusedError extends Error {
  override name = 'RefusedError';
  readonly refusal: Refusal;
  constructor(reason: Reason, message: string, messageClient?: string, lockedUntil?: string) {
    super(message);
    this.refusal = { reason, message, ...(messageClient !== undefined ? { messageClient } : {}), ...(lockedUntil !== undefined ? { lockedUntil } : {}) };
  }
  static of(refusal: Refusal): RefusedError {
    return new RefusedError(refusal.reason, refusal.message, refusal.messageClient, refusal.lockedUntil);
  }
  get reason(): Reason {
    return this.refusal.reason;
  }
}

export function refusal(reason: Reason, message: string, messageClient?: string): Refusal {
  return { reason, message, ...(messageClient !== undefined ? { messageClient } : {}) };
}
