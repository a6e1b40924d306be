import { z } from 'zod';

export {
  consolePaths,
  consoleCsrfHeader,
  consoleWebhookEventTypes,
  consoleImageKinds,
  consoleReviewReasons,
  consoleReviewReasonLabels,
  consoleRedoSteps,
  consoleRedoChannels,
  consoleRedoStepLabels,
  consoleRedoChannelLabels,
  type ConsoleImageKind,
  type ConsoleReviewReason,
  type ConsoleRedoStep,
  type ConsoleRedoChannel,
} from './console-routes.js';
import { consoleImageKinds, consoleRedoChannels, consoleRedoSteps, consoleReviewReasons, consoleWebhookEventTypes } from './console-routes.js';

export const consoleRole = z.enum(['admin', 'reviewer', 'viewer', 'operator']);
export type ConsoleRole = z.infer<typeof consoleRole>;

export const consoleSignIn = z.object({ email: z.string().trim().min(3).max(320), password: z.string().min(1).max(200) });
export const consoleTotp = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/),
});

export const consoleUser = z.object({
  email: z.string(),
  role: consoleRole,
  /** Null for a platform operator. */
  grantorId: z.string().nullable(),
  grantorName: z.string().nullable(),
});
export type ConsoleUser = z.infer<typeof consoleUser>;

/** `totp`: the password was right, the 6-digit code is due. `active`: signed in. */
export const consoleSessionState = z.object({
  stage: z.enum(['totp', 'active']),
  csrfToken: z.string(),
  user: consoleUser.optional(),
});
export type ConsoleSessionState = z.infer<typeof consoleSessionState>;

/**
 * `reviewed`: a reviewer approved or rejected it (the case's `review` says which); GREEN/YELLOW/RED are unreviewed;
 * `redo_requested`: the customer was asked to redo one step and has not yet (then it is back to its colour).
 */
export const consoleCaseStatus = z.enum(['in_progress', 'abandoned', 'finished', 'GREEN', 'YELLOW', 'RED', 'reviewed', 'redo_requested']);
export type ConsoleCaseStatus = z.infer<typeof consoleCaseStatus>;

export const consoleCaseQuery = z.object({
  /** Platform operators only: the grantor whose cases to list. */
  grantorId: z.string().max(100).optional(),
  status: consoleCaseStatus.optional(),
  /** YYYY-MM-DD, inclusive, in UTC. */
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  /** Folio (prefix of the transaction id), CURP or name. */
  q: z.string().max(200).optional(),
  cursor: z.string().max(300).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type ConsoleCaseQuery = z.input<typeof consoleCaseQuery>;

export const consoleCase = z.object({
  uuidTrx: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: consoleCaseStatus,
  step: z.string().nullable(),
  /** Null while the person's data are blocked (`blocked`). */
  holderName: z.string().nullable(),
  /** The person asked for their data to be blocked: nothing of it is shown (the case file answers 451). */
  blocked: z.boolean(),
  /** The review decision, once reviewed. */
  review: z.object({ decision: z.enum(['approve', 'reject']), reason: z.string() }).nullable(),
});
export type ConsoleCase = z.infer<typeof consoleCase>;

export const consoleCasePage = z.object({ cases: z.array(consoleCase), nextCursor: z.string().nullable() });
export type ConsoleCasePage = z.infer<typeof consoleCasePage>;

export const consoleGrantors = z.object({ grantors: z.array(z.object({ id: z.string(), name: z.string() })) });
export type ConsoleGrantors = z.infer<typeof consoleGrantors>;

export const consoleError = z.object({ status: z.number(), message: z.string(), message_client: z.string().optional() });

// Review ---------------------------------------------------------------------------------------------------

export const consoleReviewDecision = z.enum(['approve', 'reject']);
export type ConsoleReviewDecision = z.infer<typeof consoleReviewDecision>;

/** What a reviewer may decide: a final decision, or a redo of one step (the case comes back to review after it). */
export const consoleDecision = z.enum(['approve', 'reject', 'redo']);
export type ConsoleDecision = z.infer<typeof consoleDecision>;

export const consoleReviewRequest = z
  .object({
    decision: consoleDecision,
    reason: z.string().max(40),
    note: z.string().trim().max(2000).default(''),
    /** Decision `redo` only: the step the customer redoes. */
    step: z.enum(consoleRedoSteps).optional(),
    /** Decision `redo` only: where the link goes (each must be known for the case: `redoChannels` of the case file). */
    channels: z
      .array(z.enum(consoleRedoChannels))
      .min(1)
      .max(2)
      .refine((c) => new Set(c).size === c.length, 'channels are repeated')
      .optional(),
  })
  .refine((r) => (consoleReviewReasons[r.decision] as readonly string[]).includes(r.reason), { message: 'reason is not a reason code of this decision', path: ['reason'] })
  .refine((r) => (r.decision === 'redo') === (r.step !== undefined && r.channels !== undefined), {
    message: 'a redo names its step and channels; an approval or a rejection names neither',
    path: ['step'],
  });
export type ConsoleReviewRequest = z.input<typeof consoleReviewRequest>;

export const consoleReview = z.object({
  decision: consoleReviewDecision,
  reason: z.string(),
  note: z.string(),
  reviewer: z.string(),
  at: z.string(),
});
export type ConsoleReview = z.infer<typeof consoleReview>;

/**
 * The newest redo asked for a case: `pending` until the customer sends the step again (`completed`); `expired` when
 * the link lapsed unused; `cancelled` when a final decision was taken meanwhile.
 */
export const consoleRedo = z.object({
  step: z.enum(consoleRedoSteps),
  reason: z.string(),
  note: z.string(),
  reviewer: z.string(),
  channels: z.array(z.enum(consoleRedoChannels)),
  at: z.string(),
  expiresAt: z.string(),
  state: z.enum(['pending', 'completed', 'expired', 'cancelled']),
  completedAt: z.string().nullable(),
});
export type ConsoleRedo = z.infer<typeof consoleRedo>;

// Case file ------------------------------------------------------------------------------------------------

const checkOutcome = z.enum(['passed', 'failed', 'not_checked', 'missing']);

export const consoleCaseFile = z.object({
  case: consoleCase,
  uuidUser: z.string(),
  folio: z.string(),
  /** Lifecycle and audit events of the flow and the console's decisions, oldest first. */
  timeline: z.array(z.object({ at: z.string(), source: z.string(), step: z.string(), detail: z.string() })),
  /** What was read from each side of the ID. */
  idRead: z.array(z.object({ side: z.enum(['front', 'back']), documentType: z.string().nullable(), fields: z.array(z.object({ name: z.string(), label: z.string(), value: z.string() })) })),
  /** What the person confirmed; `typed`: written by the person, not read from the ID. */
  confirmed: z.array(z.object({ name: z.string(), label: z.string(), value: z.string(), typed: z.boolean() })),
  /** MRZ, CURP/RENAPO, INE, validity and hologram, each with the detail of its rules. */
  checks: z.array(
    z.object({ check: z.string(), label: z.string(), outcome: checkOutcome, detail: z.string(), items: z.array(z.object({ rule: z.string(), passed: z.boolean(), detail: z.string() })) }),
  ),
  face: z
    .object({
      match: z.boolean(),
      score: z.number().nullable(),
      threshold: z.number(),
      liveness: z.object({ passed: z.boolean(), spoof: z.boolean() }),
      spokenCode: z.object({ verified: z.boolean().nullable(), engine: z.string(), detail: z.string() }),
      message: z.string().nullable(),
      /** The transaction whose accepted face video this one's reading repeats (a replay), when one was found. */
      repeats: z.string().nullable(),
    })
    .nullable(),
  proof: z
    .object({
      outcome: checkOutcome,
      read: z.boolean(),
      fields: z.array(z.object({ name: z.string(), label: z.string(), value: z.string() })),
      nameMatchesId: z.boolean().nullable(),
      recent: z.boolean().nullable(),
      detail: z.string().nullable(),
    })
    .nullable(),
  consents: z.array(z.object({ consent: z.string(), version: z.string(), sha256: z.string(), acceptedAt: z.string() })),
  score: z.object({
    flag: z.enum(['GREEN', 'YELLOW', 'RED']),
    rules: z.array(z.object({ rule: z.string(), outcome: z.enum(['passed', 'failed', 'missing']), effect: z.enum(['none', 'yellow', 'red']), summary: z.string(), detail: z.string() })),
  }),
  /** The images stored for this case (fetch each from consolePaths.caseImage). */
  images: z.array(z.enum(consoleImageKinds)),
  review: consoleReview.nullable(),
  /** The newest redo asked for this case. */
  redo: consoleRedo.nullable(),
  /** Where a redo link can go for this case (the result e-mail's address, the SMS-verified number). */
  redoChannels: z.array(z.enum(consoleRedoChannels)),
  /** Whether the signed-in user's role may approve or reject. */
  mayReview: z.boolean(),
});
export type ConsoleCaseFile = z.infer<typeof consoleCaseFile>;

// Webhooks -------------------------------------------------------------------------------------------------

/** An endpoint of the grantor as the console shows it: never its signing secret. */
export const consoleWebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(consoleWebhookEventTypes)),
  active: z.boolean(),
  createdAt: z.string(),
});
export type ConsoleWebhookEndpoint = z.infer<typeof consoleWebhookEndpoint>;

export const consoleWebhookEndpoints = z.object({ endpoints: z.array(consoleWebhookEndpoint) });
export type ConsoleWebhookEndpoints = z.infer<typeof consoleWebhookEndpoints>;

export const consoleDeliveryQuery = z.object({
  grantorId: z.string().max(100).optional(),
  cursor: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type ConsoleDeliveryQuery = z.input<typeof consoleDeliveryQuery>;

/** delivered: a 2xx answer; failed: retries exhausted; pending: not yet delivered (retrying when attempts > 0); dropped: the endpoint was removed first. */
export const consoleDeliveryStatus = z.enum(['pending', 'delivered', 'failed', 'dropped']);
export type ConsoleDeliveryStatus = z.infer<typeof consoleDeliveryStatus>;

/** One delivery: one event to one endpoint, with all its attempts (a replay is a new delivery of the same event). */
export const consoleDelivery = z.object({
  id: z.string(),
  eventId: z.string(),
  eventType: z.string(),
  folio: z.string().nullable(),
  attempts: z.number(),
  lastStatusCode: z.number().nullable(),
  lastDurationMs: z.number().nullable(),
  lastError: z.string().nullable(),
  nextRetryAt: z.string().nullable(),
  status: consoleDeliveryStatus,
  createdAt: z.string(),
  replayOf: z.string().nullable(),
});
export type ConsoleDelivery = z.infer<typeof consoleDelivery>;

export const consoleDeliveryPage = z.object({ deliveries: z.array(consoleDelivery), nextCursor: z.string().nullable() });
export type ConsoleDeliveryPage = z.infer<typeof consoleDeliveryPage>;

// Settings (admin) ---------------------------------------------------------------------------------------------

/** A 400 whose body names the fields refused, each with its Spanish text. */
export const consoleFieldErrors = consoleError.extend({ fields: z.record(z.string(), z.string()) });
export type ConsoleFieldErrors = z.infer<typeof consoleFieldErrors>;

/** One grantor parameter as the settings screen edits it: its effective value, default and whether it is stored. */
export const consoleParam = z.object({ id: z.string(), value: z.string(), defaultValue: z.string(), stored: z.boolean() });
export const consoleParams = z.object({ params: z.array(consoleParam) });
export type ConsoleParams = z.infer<typeof consoleParams>;
/** Values to store; each checked by the same rules as `kyc-grantor set`. An empty value goes back to the default. */
export const consoleParamsUpdate = z.object({ values: z.record(z.string().max(64), z.string().max(20_000)) });
export type ConsoleParamsUpdate = z.infer<typeof consoleParamsUpdate>;

/** A secret server key as listed: never the key, only its first characters. */
export const consoleSecretKey = z.object({
  id: z.string(),
  hint: z.string(),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ConsoleSecretKey = z.infer<typeof consoleSecretKey>;
export const consoleSecretKeys = z.object({ keys: z.array(consoleSecretKey) });
export type ConsoleSecretKeys = z.infer<typeof consoleSecretKeys>;
export const consoleSecretKeyCreate = z.object({ label: z.string().trim().max(100).default('') });
export type ConsoleSecretKeyCreate = z.input<typeof consoleSecretKeyCreate>;
/** A key just created (or the new key of a rotation): the secret is in this answer only. */
export const consoleSecretKeyCreated = z.object({ key: consoleSecretKey, secret: z.string(), revoked: z.string().nullable() });
export type ConsoleSecretKeyCreated = z.infer<typeof consoleSecretKeyCreated>;

export const consoleWebhookEndpointCreate = z.object({ url: z.string().trim().max(2000), events: z.array(z.enum(consoleWebhookEventTypes)).max(3) });
export type ConsoleWebhookEndpointCreate = z.infer<typeof consoleWebhookEndpointCreate>;
/** An endpoint just added: its signing secret is in this answer only. */
export const consoleWebhookEndpointCreated = z.object({ endpoint: consoleWebhookEndpoint, secret: z.string() });
export type ConsoleWebhookEndpointCreated = z.infer<typeof consoleWebhookEndpointCreated>;

/** A staff user of the grantor as the settings screen lists it. */
export const consoleStaffUser = z.object({ id: z.string(), email: z.string(), role: consoleRole, active: z.boolean(), totp: z.boolean(), createdAt: z.string() });
export type ConsoleStaffUser = z.infer<typeof consoleStaffUser>;
export const consoleStaffUsers = z.object({ users: z.array(consoleStaffUser) });
export type ConsoleStaffUsers = z.infer<typeof consoleStaffUsers>;
export const consoleGrantorRole = z.enum(['admin', 'reviewer', 'viewer']);
export const consoleStaffUserCreate = z.object({ email: z.string().trim().max(320), role: consoleGrantorRole, totp: z.boolean().default(false) });
export type ConsoleStaffUserCreate = z.input<typeof consoleStaffUserCreate>;
export const consoleStaffUserUpdate = z.object({ role: consoleGrantorRole.optional(), active: z.boolean().optional() });
export type ConsoleStaffUserUpdate = z.infer<typeof consoleStaffUserUpdate>;
/** A user just created, or a second factor just reset: the password and the otpauth:// URI are in this answer only. */
export const consoleStaffUserCredentials = z.object({ user: consoleStaffUser, password: z.string().nullable(), totpUri: z.string().nullable() });
export type ConsoleStaffUserCredentials = z.infer<typeof consoleStaffUserCredentials>;

/** The grantor's retention policy: the values the retention sweep applies, with their bounds. */
export const consoleRetention = z.object({
  biometricDays: z.number().int(),
  fileYears: z.number().int(),
  stored: z.boolean(),
  limits: z.object({ biometricDays: z.object({ min: z.number(), max: z.number() }), fileYears: z.object({ min: z.number(), max: z.number() }) }),
});
export type ConsoleRetention = z.infer<typeof consoleRetention>;
export const consoleRetentionUpdate = z.object({ biometricDays: z.number(), fileYears: z.number() });
export type ConsoleRetentionUpdate = z.infer<typeof consoleRetentionUpdate>;
// Funnel and case media (console-insights.ts) -------------------------------------------------------------

export { consoleInsightPaths, consoleFunnelSteps, consoleFunnelStepLabels, consoleOptionalFunnelSteps, type ConsoleFunnelStep } from './console-insights.js';
import { consoleFunnelSteps } from './console-insights.js';

export const consoleFunnelQuery = z.object({
  /** Platform operators only: the grantor whose funnel to show. */
  grantorId: z.string().max(100).optional(),
  /** YYYY-MM-DD, inclusive, in UTC: the transactions created in the range (default: the last 30 days). */
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});
export type ConsoleFunnelQuery = z.input<typeof consoleFunnelQuery>;

export const consoleFunnel = z.object({
  from: z.string(),
  to: z.string(),
  /** Transactions created in the range. */
  transactions: z.number(),
  finished: z.number(),
  /** Quiet for CONSOLE_ABANDON_MINUTES (or cancelled) without finishing. */
  abandoned: z.number(),
  inProgress: z.number(),
  steps: z.array(
    z.object({
      step: z.enum(consoleFunnelSteps),
      label: z.string(),
      /** Transactions of the range that reached the step. */
      reached: z.number(),
      /** reached / the previous shown step's reached (1 for the first step); null when the previous is 0. */
      conversion: z.number().nullable(),
      /** Abandoned (or cancelled) with this as the furthest step reached. */
      stoppedHere: z.number(),
      /** Still in progress with this as the furthest step reached. */
      inProgressHere: z.number(),
      /** Median time from the previous step reached (the link's opening for the first) to this one; null for `opened`. */
      medianMs: z.number().nullable(),
    }),
  ),
  /** Lifecycle events stored before their status was indexed (migration 0027) and not yet counted; 0 once all are. */
  pendingEvents: z.number(),
});
export type ConsoleFunnel = z.infer<typeof consoleFunnel>;

export const consoleVideoFrames = z.object({
  durationMs: z.number(),
  /** `compared`: one of the frames the face decision compared with the ID photo (the others spread over the video). */
  frames: z.array(z.object({ timeMs: z.number(), image: z.string(), compared: z.boolean() })),
});
export type ConsoleVideoFrames = z.infer<typeof consoleVideoFrames>;
