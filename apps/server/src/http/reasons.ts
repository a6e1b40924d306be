import { errorTexts, redoTexts, type ErrorBody } from '@kyc/contracts';
import type { Reason, Refusal } from '../domain/refusal.js';

interface ReasonReply {
  status: number;
  /** The user's text (contracts) when the refusal does not carry its own. */
  client?: string;
}

/**
 * The one table from a refusal's reason to its HTTP status and default client text (docs/flow.md §8 lists the
 * statuses and texts of the flow's errors). Every route answers a service's refusal through it; the type makes it
 * total, so a new reason does not compile until it has a status here.
 */
export const reasonReplies: { readonly [R in Reason]: ReasonReply } = {
  invalid_request: { status: 400 },
  payload_too_large: { status: 413 },
  unsupported_media_type: { status: 415 },

  transaction_unknown: { status: 404 },
  transaction_other_owner: { status: 403 },
  transaction_locked: { status: 429, client: errorTexts.attemptsExceeded },
  transaction_finished: { status: 409 },
  transaction_cancelled: { status: 409 },
  transaction_erased: { status: 410 },
  transaction_restricted: { status: 451 },
  journey_out_of_order: { status: 409 },
  attempts_exhausted: { status: 429, client: errorTexts.attemptsExceeded },
  server_busy: { status: 503, client: errorTexts.serviceUnavailable },
  service_closing: { status: 503, client: errorTexts.serviceUnavailable },
  connections_per_ip: { status: 429, client: errorTexts.tooManyRequests },
  realtime_answered: { status: 409 },

  video_too_long: { status: 413, client: errorTexts.watchdog },
  video_unusable: { status: 415, client: errorTexts.watchdog },
  video_decoder_missing: { status: 503, client: errorTexts.serviceUnavailable },
  video_decode_timeout: { status: 422, client: errorTexts.watchdog },
  video_unreadable: { status: 400, client: errorTexts.watchdog },
  video_code_unknown: { status: 400, client: errorTexts.watchdog },
  video_code_used: { status: 409, client: errorTexts.watchdog },
  video_code_expired: { status: 410, client: errorTexts.watchdog },
  holder_photo_missing: { status: 409 },
  face_capture_problem: { status: 400 },
  face_no_match: { status: 400, client: errorTexts.noMatchClient },
  face_not_live: { status: 400 },
  face_spoof: { status: 404, client: errorTexts.attemptsExceeded },
  video_source_refused: { status: 400, client: errorTexts.watchdog },

  compare_face_missing: { status: 422 },
  compare_faces_several: { status: 422 },
  compare_image_too_small: { status: 422 },
  compare_video_timeout: { status: 422 },
  compare_decoder_missing: { status: 503 },

  link_credential_missing: { status: 401 },
  link_malformed: { status: 400 },
  link_tampered: { status: 400 },
  link_mismatch: { status: 400 },
  link_other_user: { status: 403 },
  link_unknown: { status: 404 },
  link_expired: { status: 410 },
  link_consumed: { status: 410 },
  link_not_verified: { status: 403 },
  link_grantor_inactive: { status: 403 },
  redo_other_step: { status: 403, client: redoTexts.otherStep },
  redo_step_incomplete: { status: 409, client: redoTexts.incomplete },
  redo_not_allowed: { status: 409 },
};

export function reasonStatus(reason: Reason): number {
  return reasonReplies[reason].status;
}

/** The error body of a refusal: the table's status, the refusal's message, its client text or the table's. */
export function refusalBody(refusal: Refusal): ErrorBody {
  const client = refusal.messageClient ?? reasonReplies[refusal.reason].client;
  return {
    status: reasonStatus(refusal.reason),
    message: refusal.message,
    ...(client ? { message_client: client } : {}),
    ...(refusal.lockedUntil ? { locked_until: refusal.lockedUntil } : {}),
  };
}
