import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseIdentityGateways, type IdentityGatewaysConfig } from './features/identity-checks/gateways/config.js';
import { parseRealtimeEnv, type RealtimeConfig } from './features/realtime/config.js';
import { parseConsoleEnv, type ConsoleConfig } from './features/console/config.js';
import { parseSpeechEnv, type SpeechConfig } from './engines/speech/config.js';
import { parseRateLimitEnv, type RateLimitConfig } from './http/rate-limit-config.js';
import { defaultEngineIdleCloseSeconds, defaultEngineQueue } from './engines/lazy-provider.js';
import { testScheduleFromEnv, type ChallengeSchedule } from './features/face-video/schedule.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

export type DatabaseConfig =
  | { kind: 'sqlite'; file: string }
  /** searchPath selects a PostgreSQL schema (tests use one schema per run). */
  | { kind: 'postgres'; url: string; searchPath?: string };

/** Where uploaded evidence (images, videos, PDFs) is kept; always encrypted with the data key first. */
export type BlobConfig =
  | { kind: 'filesystem'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      region: string;
      /** An S3-compatible service (MinIO, Ceph, R2...); AWS when undefined. */
      endpoint: string | undefined;
      forcePathStyle: boolean;
      /** Both or neither: without them the AWS SDK's default chain applies (environment, instance role). */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
    };

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  database: DatabaseConfig;
  logLevel: LogLevel;
  /** `pretty` (human-readable lines) when stdout is a terminal, else `json` (one object a line, for collectors). */
  logFormat: 'json' | 'pretty';
  /** Whole request (headers and body) must arrive within this; slower clients get 408 and the connection is closed. */
  requestTimeoutMs: number;
  /** The request's headers must arrive within this (at most requestTimeoutMs). */
  headersTimeoutMs: number;
  demoGrantor: boolean;
  /** PROCESS_ROLE: `both` (the embedded default) serves the API and runs the durable jobs; `api` or `worker` one of them. */
  processRole: 'both' | 'api' | 'worker';
  /** METRICS_TOKEN: GET /metrics answers only with `Authorization: Bearer <token>`; unset, there is no /metrics. */
  metricsToken: string | undefined;
  /**
   * OpenTelemetry tracing, off unless OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (the full URL) or OTEL_EXPORTER_OTLP_ENDPOINT
   * (its base; /v1/traces is added) names an OTLP/HTTP collector; OTEL_SERVICE_NAME names this service in it.
   */
  tracing: { endpoint: string | undefined; serviceName: string };
  publicUrl: string | undefined;
  /** 32 bytes from DATA_ENCRYPTION_KEY; when undefined the key file under dataDir is used. */
  dataEncryptionKey: Buffer | undefined;
  jsonBodyLimit: number;
  uploadLimit: number;
  blobs: BlobConfig;
  webDist: string;
  trustProxy: boolean;
  /** HSTS_MAX_AGE: Strict-Transport-Security max-age (seconds) on HTTPS requests; 0 turns it off. */
  hstsMaxAgeSeconds: number;
  /** TRANSACTION_TOKEN_HOURS: lifetime of the browser's per-transaction token (X-Transaction-Token), 1-72 hours. */
  transactionTokenHours: number;
  shutdownTimeoutMs: number;
  /** SMS gateway (SMS_GATEWAY_URL); undefined: codes go to the local outbox under dataDir. */
  smsGateway?: { url: string; token: string | undefined } | undefined;
  /** HS256 secret of the launcher's tokens (LAUNCHER_JWT_SECRET); undefined: derived from the data key. */
  launcherJwtSecret?: Buffer | undefined;
  /** Lifetime of a launcher token in seconds. */
  launcherTokenTtlSeconds?: number;
  /** The built launcher (packages/launcher/dist), served under /launcher/v1/. */
  launcherDist?: string;
  /** 32 bytes from RESULT_LINK_KEY (HS256 key of result links); else a key file under dataDir (see crypto/link-key.ts). */
  resultLinkKey: Buffer | undefined;
  /** SMTP server of the result e-mail (smtp:// or smtps://); the local outbox under dataDir when undefined. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** RFC 3161 time-stamping authority of the evidence bundle; a local, uncertified signer when undefined. */
  tsaUrl: string | undefined;
  /** External RENAPO and INE list gateways (RENAPO_*, INE_*); undefined ones are not consulted. */
  identityGateways: IdentityGatewaysConfig;
  /** The real-time media server (REALTIME_* variables, features/realtime/config.ts). */
  realtime: RealtimeConfig;
  /** The spoken-code recogniser (ASR_* variables, engines/speech/config.ts); none by default. */
  speech: SpeechConfig;
  /** Abuse limits per transaction, client IP and api key (RATE_LIMIT_* and REDIS_URL, http/rate-limit-config.ts). */
  rateLimits: RateLimitConfig;
  /** Lifecycle plus audit events one transaction may store (EVENTS_PER_TRANSACTION); beyond it 429, nothing stored. */
  eventsPerTransaction: number;
  /** Result e-mails of one transaction after the first (RESULT_EMAIL_RESENDS), all to the one confirmed address. */
  resultEmailResends: number;
  /** Hours a development outbox message (DATA_DIR/outbox) is kept before it is deleted (OUTBOX_RETENTION_HOURS). */
  outboxRetentionHours: number;
  /** The review console (CONSOLE_* variables, features/console/config.ts). */
  console: ConsoleConfig;
  /** TEST ONLY (VIDEO_TOKEN_TEST_SCHEDULE_MS, refused unless NODE_ENV=test): one digit schedule for every code. */
  videoTokenTestSchedule?: ChallengeSchedule | undefined;
  /** ENGINE_QUEUE_LENGTH, ENGINE_QUEUE_WAIT_MS: OCR reads and face decisions waiting for a slot, and how long each may wait. */
  engineQueue: { length: number; waitMs: number };
  /**
   * ENGINE_WORKERS: worker threads of each engine (the OCR's text readers and the face engine's); unset, one per core
   * up to 2. Set it lower when several nodes share one machine's cores (docs/decisions.md).
   */
  engineWorkers: number | undefined;
  /** ENGINE_IDLE_CLOSE_SECONDS: the OCR and face engines are closed after this long unused (their memory returned); 0 never. */
  engineIdleCloseMs: number;
  /**
   * The engine service (docs/decisions.md "OCR and face work on the workers"): ENGINE_SERVICE_URL, the workers an API
   * node sends its OCR and face work to (none: run here); ENGINE_SERVICE_TOKEN, their shared credential, which also
   * makes a worker serve its engines.
   */
  engineService: { urls: string[]; token: string | undefined };
}

const MiB = 1024 * 1024;
// Relative to this module, so it resolves the same from src/ (tsx) and from dist/ (node).
const defaultWebDist = fileURLToPath(new URL('../../web/dist/', import.meta.url));
const defaultLauncherDist = fileURLToPath(new URL('../../../packages/launcher/dist/', import.meta.url));

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

function httpUrl() {
  return z
    .string()
    .trim()
    .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), { error: 'must be an http:// or https:// URL' });
}

/** The OTLP/HTTP traces URL: the signal's own setting as given, or the base endpoint with /v1/traces (the OTLP rule). */
function tracesEndpoint(traces: string | undefined, base: string | undefined): string | undefined {
  if (traces) return traces;
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

function optional<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToUndefined, schema.optional());
}

function integer(min: number, max: number) {
  const message = `must be an integer ${min}-${max}`;
  return z
    .string({ error: message })
    .trim()
    .regex(/^\d+$/, { error: message })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: message });
}

function flag() {
  return z.enum(['true', 'false'], { error: "must be 'true' or 'false'" }).transform((v) => v === 'true');
}

const databaseUrl = z
  .string()
  .trim()
  .refine((v) => /^postgres(ql)?:\/\//.test(v) && URL.canParse(v), {
    error: 'must be a postgres:// or postgresql:// URL (leave it unset to use the embedded SQLite database)',
  });

const encryptionKey = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const key = Buffer.from(v, 'base64');
    if (key.length !== 32 || key.toString('base64') !== v) {
      ctx.addIssue({ code: 'custom', message: 'must be 32 bytes encoded in base64 (openssl rand -base64 32)' });
      return z.NEVER;
    }
    return key;
  });

const publicUrl = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), { error: 'must be an http:// or https:// URL' })
  .transform((v) => v.replace(/\/+$/, ''));

const s3Endpoint = z
  .string()
  .trim()
  .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), { error: 'must be an http:// or https:// URL' });

const s3Bucket = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'must be a bucket name (3-63 lower-case letters, digits, dots, hyphens)' });

const envSchema = z.object({
  PORT: optional(integer(1, 65535)),
  HOST: optional(z.string().trim()),
  DATA_DIR: optional(z.string().trim()),
  DATABASE_URL: optional(databaseUrl),
  LOG_LEVEL: optional(z.enum(logLevels, { error: `must be one of ${logLevels.join(', ')}` })),
  LOG_FORMAT: optional(z.enum(['json', 'pretty'], { error: 'must be json or pretty' })),
  DEMO_GRANTOR: optional(flag()),
  PROCESS_ROLE: optional(z.enum(['both', 'api', 'worker'], { error: 'must be both, api or worker' })),
  PUBLIC_URL: optional(publicUrl),
  DATA_ENCRYPTION_KEY: optional(encryptionKey),
  JSON_BODY_LIMIT: optional(integer(1024, 1024 * MiB)),
  UPLOAD_LIMIT: optional(integer(1024, 4096 * MiB)),
  S3_BUCKET: optional(s3Bucket),
  S3_ENDPOINT: optional(s3Endpoint),
  S3_REGION: optional(
    z
      .string()
      .trim()
      .regex(/^[a-z0-9-]{2,40}$/, { error: 'must be a region name such as us-east-1' }),
  ),
  S3_ACCESS_KEY_ID: optional(z.string().trim()),
  S3_SECRET_ACCESS_KEY: optional(z.string().trim()),
  S3_FORCE_PATH_STYLE: optional(flag()),
  WEB_DIST: optional(z.string().trim()),
  TRUST_PROXY: optional(flag()),
  HSTS_MAX_AGE: optional(integer(0, 2 * 365 * 24 * 3600)),
  TRANSACTION_TOKEN_HOURS: optional(integer(1, 72)),
  SHUTDOWN_TIMEOUT_MS: optional(integer(100, 600_000)),
  REQUEST_TIMEOUT_MS: optional(integer(1000, 3_600_000)),
  HEADERS_TIMEOUT_MS: optional(integer(500, 600_000)),
  SMS_GATEWAY_URL: optional(httpUrl()),
  SMS_GATEWAY_TOKEN: optional(z.string().trim()),
  OTEL_EXPORTER_OTLP_ENDPOINT: optional(httpUrl()),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: optional(httpUrl()),
  OTEL_SERVICE_NAME: optional(
    z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{1,100}$/, { error: 'must be 1 to 100 printable characters without spaces' }),
  ),
  METRICS_TOKEN: optional(
    z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{24,200}$/, { error: 'must be 24 to 200 printable characters without spaces (openssl rand -hex 24)' }),
  ),
  LAUNCHER_JWT_SECRET: optional(
    z
      .string()
      .trim()
      .transform((v, ctx) => {
        const key = Buffer.from(v, 'base64');
        if (key.length < 32) {
          ctx.addIssue({ code: 'custom', message: 'must be at least 32 bytes encoded in base64 (openssl rand -base64 32)' });
          return z.NEVER;
        }
        return key;
      }),
  ),
  LAUNCHER_TOKEN_TTL_SECONDS: optional(integer(30, 3600)),
  LAUNCHER_DIST: optional(z.string().trim()),
  RESULT_LINK_KEY: optional(encryptionKey),
  SMTP_URL: optional(
    z
      .string()
      .trim()
      .refine((v) => /^smtps?:\/\//.test(v) && URL.canParse(v), { error: 'must be an smtp:// or smtps:// URL' }),
  ),
  MAIL_FROM: optional(
    z
      .string()
      .trim()
      .regex(/^[^\r\n]{3,200}$/, { error: 'must be an address such as "Onboarding <no-reply@example.com>"' }),
  ),
  TSA_URL: optional(publicUrl),
  EVENTS_PER_TRANSACTION: optional(integer(10, 1_000_000)),
  RESULT_EMAIL_RESENDS: optional(integer(0, 20)),
  OUTBOX_RETENTION_HOURS: optional(integer(1, 24 * 365)),
  ENGINE_QUEUE_LENGTH: optional(integer(0, 1000)),
  ENGINE_QUEUE_WAIT_MS: optional(integer(100, 600_000)),
  ENGINE_IDLE_CLOSE_SECONDS: optional(integer(0, 86_400)),
  ENGINE_WORKERS: optional(integer(1, 16)),
  ENGINE_SERVICE_URL: optional(
    z
      .string()
      .trim()
      .transform((v) =>
        v
          .split(',')
          .map((u) => u.trim())
          .filter((u) => u !== ''),
      )
      .refine((urls) => urls.every((u) => /^https?:\/\//.test(u) && URL.canParse(u)), { error: 'must be http:// or https:// URLs separated by commas' }),
  ),
  ENGINE_SERVICE_TOKEN: optional(
    z
      .string()
      .trim()
      .regex(/^[\x21-\x7e]{24,200}$/, { error: 'must be 24 to 200 printable characters without spaces (openssl rand -hex 24)' }),
  ),
});

type Env = z.output<typeof envSchema>;

const s3Variables = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;

function blobConfig(e: Env, dataDir: string): BlobConfig {
  if (!e.S3_BUCKET) {
    const stray = s3Variables.filter((name) => e[name] !== undefined);
    if (stray.length > 0) {
      throw new ConfigError(`Invalid configuration: ${stray.join(', ')} set without S3_BUCKET (set S3_BUCKET to store blobs in S3)`);
    }
    return { kind: 'filesystem', dir: path.join(dataDir, 'blobs') };
  }
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together (or leave both unset)');
  }
  return {
    kind: 's3',
    bucket: e.S3_BUCKET,
    region: e.S3_REGION ?? 'us-east-1',
    endpoint: e.S3_ENDPOINT,
    // Most self-hosted S3-compatible services only answer path-style requests.
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? e.S3_ENDPOINT !== undefined,
    credentials: e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined,
  };
}

/** Reads and validates the environment; throws ConfigError naming the first bad variables. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, stdoutIsTerminal = process.stdout.isTTY === true): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`);
    throw new ConfigError(`Invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const gateways = parseIdentityGateways(env);
  if ('problems' in gateways) throw new ConfigError(`Invalid configuration: ${gateways.problems.join('; ')}`);
  const dataDir = path.resolve(e.DATA_DIR ?? './data');
  if (e.SMS_GATEWAY_TOKEN && !e.SMS_GATEWAY_URL) {
    throw new ConfigError('Invalid configuration: SMS_GATEWAY_TOKEN set without SMS_GATEWAY_URL');
  }
  if (e.DATABASE_URL && !e.DATA_ENCRYPTION_KEY) {
    throw new ConfigError('Invalid configuration: DATA_ENCRYPTION_KEY is required with DATABASE_URL, so that every node ' + 'decrypts with the same key (generate one with: openssl rand -base64 32)');
  }
  const realtime = parseRealtimeEnv(env);
  if (!realtime.ok) throw new ConfigError(`Invalid configuration: ${realtime.problems.join('; ')}`);
  const speech = parseSpeechEnv(env);
  if (!speech.ok) throw new ConfigError(`Invalid configuration: ${speech.problems.join('; ')}`);
  const rateLimits = parseRateLimitEnv(env);
  if (!rateLimits.ok) throw new ConfigError(`Invalid configuration: ${rateLimits.problems.join('; ')}`);
  const consoleEnv = parseConsoleEnv(env);
  if (!consoleEnv.ok) throw new ConfigError(`Invalid configuration: ${consoleEnv.problems.join('; ')}`);
  const testSchedule = testScheduleFromEnv(env);
  if (!testSchedule.ok) throw new ConfigError(`Invalid configuration: ${testSchedule.problem}`);
  if (e.ENGINE_SERVICE_URL?.length && !e.ENGINE_SERVICE_TOKEN) throw new ConfigError("Invalid configuration: ENGINE_SERVICE_URL needs ENGINE_SERVICE_TOKEN (the workers' shared credential)");
  if (e.ENGINE_SERVICE_URL?.length && e.PROCESS_ROLE === 'worker') throw new ConfigError('Invalid configuration: a worker runs the engines it serves: ENGINE_SERVICE_URL is for API nodes');
  return {
    port: e.PORT ?? 8080,
    host: e.HOST ?? '127.0.0.1',
    dataDir,
    database: e.DATABASE_URL ? { kind: 'postgres', url: e.DATABASE_URL } : { kind: 'sqlite', file: path.join(dataDir, 'onboarding.sqlite') },
    logLevel: e.LOG_LEVEL ?? 'info',
    logFormat: e.LOG_FORMAT ?? (stdoutIsTerminal ? 'pretty' : 'json'),
    demoGrantor: e.DEMO_GRANTOR ?? true,
    processRole: e.PROCESS_ROLE ?? 'both',
    metricsToken: e.METRICS_TOKEN,
    tracing: { endpoint: tracesEndpoint(e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, e.OTEL_EXPORTER_OTLP_ENDPOINT), serviceName: e.OTEL_SERVICE_NAME ?? 'kyc-onboarding' },
    publicUrl: e.PUBLIC_URL,
    dataEncryptionKey: e.DATA_ENCRYPTION_KEY,
    jsonBodyLimit: e.JSON_BODY_LIMIT ?? MiB,
    uploadLimit: e.UPLOAD_LIMIT ?? 15 * MiB,
    blobs: blobConfig(e, dataDir),
    webDist: path.resolve(e.WEB_DIST ?? defaultWebDist),
    trustProxy: e.TRUST_PROXY ?? false,
    hstsMaxAgeSeconds: e.HSTS_MAX_AGE ?? 180 * 24 * 3600,
    // Long enough for a journey interrupted to fetch a document, short enough that a leaked token soon dies.
    transactionTokenHours: e.TRANSACTION_TOKEN_HOURS ?? 12,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS ?? 120_000,
    headersTimeoutMs: Math.min(e.HEADERS_TIMEOUT_MS ?? 15_000, e.REQUEST_TIMEOUT_MS ?? 120_000),
    smsGateway: e.SMS_GATEWAY_URL ? { url: e.SMS_GATEWAY_URL, token: e.SMS_GATEWAY_TOKEN } : undefined,
    launcherJwtSecret: e.LAUNCHER_JWT_SECRET,
    launcherTokenTtlSeconds: e.LAUNCHER_TOKEN_TTL_SECONDS ?? 600,
    launcherDist: path.resolve(e.LAUNCHER_DIST ?? defaultLauncherDist),
    resultLinkKey: e.RESULT_LINK_KEY,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? 'Onboarding <no-reply@localhost>',
    tsaUrl: e.TSA_URL,
    identityGateways: gateways.config,
    realtime: realtime.config,
    speech: speech.config,
    console: consoleEnv.config,
    videoTokenTestSchedule: testSchedule.schedule,
    rateLimits: rateLimits.config,
    eventsPerTransaction: e.EVENTS_PER_TRANSACTION ?? 1000,
    engineQueue: { length: e.ENGINE_QUEUE_LENGTH ?? defaultEngineQueue.length, waitMs: e.ENGINE_QUEUE_WAIT_MS ?? defaultEngineQueue.waitMs },
    engineIdleCloseMs: (e.ENGINE_IDLE_CLOSE_SECONDS ?? defaultEngineIdleCloseSeconds) * 1000,
    engineWorkers: e.ENGINE_WORKERS,
    engineService: { urls: e.ENGINE_SERVICE_URL ?? [], token: e.ENGINE_SERVICE_TOKEN },
    resultEmailResends: e.RESULT_EMAIL_RESENDS ?? 2,
    outboxRetentionHours: e.OUTBOX_RETENTION_HOURS ?? 72,
  };
}

/** The address printed at start and used in links: PUBLIC_URL, else localhost and the port. */
export function publicBaseUrl(config: Config): string {
  return config.publicUrl ?? `http://localhost:${config.port}`;
}
