import type { FastifyBaseLogger } from 'fastify';
import { errorResponses } from '../http/errors.js';
import type { JobHandler } from '../jobs/worker.js';
import { authorizeTransaction } from '../http/auth.js';
import type { Deps, ZodApp } from '../http/deps.js';
import { registerConsoleRoutes } from './console/routes.js';
import { registerEventRoutes } from './events/routes.js';
import { registerFacesCompareRoutes } from './faces-compare/routes.js';
import { registerPublicVideoTokenRoutes } from './face-video/public-routes.js';
import { registerVideoTokenRoutes } from './face-video/routes.js';
import { registerParamsRoutes } from './grantors/params-routes.js';
import { registerIdCalibrateRoutes } from './id-capture/calibrate-routes.js';
import { registerOcrRoutes } from './id-capture/ocr-routes.js';
import { registerIdentityCheckRoutes } from './identity-checks/routes.js';
import { registerLauncherRoutes } from './launcher/routes.js';
import { postalRoutes } from './postal/index.js';
import { registerFileRoutes } from './proof/file-routes.js';
import { recordingHandlers, registerRealtimeRoutes, type RecordingHandlers } from './realtime/index.js';
import { videoTokenRecordingHandlers } from './realtime/video-token-handler.js';
import { resultEmailJobs } from './results/email-worker.js';
import { registerResultsRoutes, resultLinkContext } from './results/routes.js';
import { redoJobs } from './redo/jobs.js';
import { funnelJobs } from './console/funnel-fold-job.js';
import { registerRedoRoutes } from './redo/routes.js';
import { retentionJobs } from './retention/index.js';
import { registerSmsRoutes } from './sms/routes.js';
import { webhookJobHandler } from './webhooks/delivery.js';
import { webhookJobKind } from './webhooks/events.js';

/** What the composition root passes to every feature besides the shared dependencies (tests replace parts). */
export interface FeatureOptions {
  /** Runs due durable jobs now, when this process runs the job worker (a worker process polls otherwise). */
  wakeJobs?: () => void;
  /** Decisions of real-time recordings by type, replacing the ones registered here. */
  recordingHandlers?: Partial<RecordingHandlers>;
}

export interface Feature {
  /** The folder under features/. */
  name: string;
  /** Registers the feature's routes and hooks on its own encapsulated Fastify context (API processes). */
  routes?: (app: ZodApp, deps: Deps, options: FeatureOptions) => void | Promise<void>;
  /** The durable jobs it hands to the job worker (worker processes), and what to close with the worker. */
  jobs?: (deps: Deps, log: FastifyBaseLogger) => FeatureJobs;
}

export interface FeatureJobs {
  handlers: Record<string, JobHandler>;
  close?: () => void;
}

/**
 * Every feature of the service with routes, in registration order. A new feature is a folder under features/ and
 * one row here (its migrations, if any, one row in features/migrations.ts). Shared hooks, parsers, the error
 * handler and the rate limits are set on the root before the features, so every feature inherits them.
 */
export const features: readonly Feature[] = [
  { name: 'grantors', routes: (app, deps) => registerParamsRoutes(app, deps) },
  { name: 'events', routes: (app, deps) => registerEventRoutes(app, deps) },
  { name: 'proof', routes: (app, deps) => registerFileRoutes(app, deps) },
  {
    name: 'id-capture',
    routes: (app, deps) => {
      registerOcrRoutes(app, deps);
      registerIdCalibrateRoutes(app, deps);
    },
  },
  { name: 'launcher', routes: (app, deps) => registerLauncherRoutes(app, deps) },
  { name: 'sms', routes: (app, deps) => registerSmsRoutes(app, deps) },
  {
    name: 'results',
    routes: (app, deps, options) => registerResultsRoutes(app, deps, options.wakeJobs ? { wakeJobs: options.wakeJobs } : {}),
    jobs: (deps, log) => resultEmailJobs(deps, log),
  },
  { name: 'identity-checks', routes: (app, deps) => registerIdentityCheckRoutes(app, deps) },
  {
    name: 'face-video',
    routes: (app, deps) => {
      registerVideoTokenRoutes(app, deps);
      registerPublicVideoTokenRoutes(app, deps);
    },
  },
  { name: 'faces-compare', routes: (app, deps) => registerFacesCompareRoutes(app, deps) },
  {
    name: 'realtime',
    // Decisions of real-time recordings by type; a type without one replies 500 'service unavailable'.
    routes: (app, deps, options) =>
      void registerRealtimeRoutes(app, deps, {
        handlers: recordingHandlers({ ...videoTokenRecordingHandlers(deps, resultLinkContext(deps)), ...options.recordingHandlers }),
      }),
  },
  {
    name: 'postal',
    routes: (app, deps) =>
      postalRoutes(app, {
        db: deps.db,
        caches: deps.caches,
        resolveTransaction: (_request, headers) => authorizeTransaction(deps, headers),
        openApi: { tags: ['postal-codes'], errorResponses },
      }),
  },
  { name: 'console', routes: (app, deps) => registerConsoleRoutes(app, deps, deps.config.console), jobs: (deps, log) => funnelJobs(deps, log) },
  {
    // Signed deliveries of verification.completed / verification.abandoned; endpoints are managed with the grantor CLI.
    name: 'webhooks',
    jobs: (deps) => ({ handlers: { [webhookJobKind]: webhookJobHandler({ db: deps.db, cipher: deps.cipher }) } }),
  },
  // A review's redo: the customer's link (one step of a finished case) and its e-mail / SMS notices.
  { name: 'redo', routes: (app, deps) => registerRedoRoutes(app, deps), jobs: (deps, log) => redoJobs(deps, log) },
  // Retention policy sweep; data-subject requests and legal holds are filed with the grantor CLI.
  { name: 'retention', jobs: (deps, log) => retentionJobs(deps, log) },
];

/** Each feature as a Fastify plugin: an encapsulated child context of `app`, so its hooks stay its own. */
export async function registerFeatures(app: ZodApp, deps: Deps, options: FeatureOptions): Promise<void> {
  for (const { routes } of features) {
    if (!routes) continue;
    await app.register(async (scope) => {
      await routes(scope, deps, options);
    });
  }
}

/** The job handlers of every feature, for the one job worker of a worker process. */
export function featureJobs(deps: Deps, log: FastifyBaseLogger): FeatureJobs[] {
  return features.flatMap((feature) => (feature.jobs ? [feature.jobs(deps, log)] : []));
}
