import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import type { DestinationStream } from 'pino';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createBlobStore } from './blob/index.js';
import type { Config } from './config.js';
import { createDataCipher, loadDataKey, type DataCipher } from './crypto/data-cipher.js';
import type { Deps, ZodApp } from './http/deps.js';
import { AppCaches } from './caches.js';
import { frameworkErrorHandler, registerErrorHandling } from './http/errors.js';
import { registerHealthRoutes } from './http/health.js';
import { registerNulGuard } from './http/nul-guard.js';
import { registerOpenApi, registerOpenApiRoute } from './http/openapi.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerRateLimits } from './http/rate-limits.js';
import { registerWeb } from './http/web.js';
import { consoleContentSecurityPolicy } from './http/security-headers.js';
import { responseSerializerCompiler } from './http/serializer.js';
import { featureJobs, registerFeatures } from './features/index.js';
import { startJobWorker } from './jobs/worker.js';
import { createMetrics, type Metrics } from './metrics/registry.js';
import { registerMetricsRoute } from './metrics/route.js';
import { runWithRequestId } from './request-context.js';
import { startTracing } from './tracing/provider.js';
import { createOcrEngine } from './engines/ocr/engine.js';
import { defaultMaxInFlightReads, lazyOcrEngine, type OcrEngineProvider } from './engines/ocr/provider.js';
import { createFaceEngine } from './engines/face/engine.js';
import { defaultMaxInFlightDecisions, lazyFaceEngine } from './engines/face/provider.js';
import { busyWhenRemoteBusy, remoteFaceEngine, remoteOcrEngine } from './engines/remote/client.js';
import { registerEngineService } from './engines/remote/service-routes.js';
import { createSpeechRecognizer } from './engines/speech/recognizer.js';
import { catalogueStatus, catalogueStatusLog, seedSampleCatalogueIfEmpty } from './features/postal/index.js';
import type { RecordingHandlers } from './features/realtime/index.js';
import { loggerOptions, OneLinePerRequest, prettyLogStream } from './logger.js';
import { seedDemoGrantor } from './seed.js';
import { createDatabase, type Db } from './store/db.js';
import { migrateToLatest, migrationsComplete } from './migrations.js';
import { uploadLimits } from './uploads/limits.js';
import { registerMultipart } from './http/multipart-plugin.js';

export interface BuildOptions {
  /** A database owned by the caller (tests); otherwise one is opened from config and closed with the app. */
  db?: Db;
  /**
   * The app's caches, when the caller writes to `db` itself (tests seeding grantors, importing postal codes) and must
   * empty them as the app's own writes do; otherwise the app creates its own.
   */
  caches?: AppCaches;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: DestinationStream;
  /** Job worker timings (tests shorten them). */
  jobs?: { pollMs?: number; backoffMs?: number };
  /** Decisions of real-time recordings by type, replacing the ones registered here (tests inject theirs). */
  recordingHandlers?: Partial<RecordingHandlers>;
  /** Wraps the OCR engine provider (tests count the reads that reach the engine). */
  wrapOcr?: (provider: OcrEngineProvider) => OcrEngineProvider;
}

const requestIdPattern = /^[A-Za-z0-9._:-]{8,128}$/;

function serviceVersion(): string {
  // package.json sits one level above both src/ and dist/.
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

function openCipher(app: ZodApp, config: Config): DataCipher {
  const loaded = loadDataKey(config);
  for (const warning of loaded.warnings) app.log.warn(warning);
  if (loaded.created) app.log.info({ file: loaded.file }, 'generated the data encryption key file: back it up with the database');
  const cipher = createDataCipher(loaded.key);
  app.log.info({ keyId: cipher.keyId, source: loaded.source }, 'data encryption key loaded');
  return cipher;
}

const processRoleLine: Record<Config['processRole'], string> = {
  both: 'process role: API and job worker',
  api: 'process role: API only (durable jobs are left to worker processes)',
  worker: 'process role: job worker only (health check, no API routes)',
};

/** The one job worker of this process, with every feature's job handlers; stopped when the app closes. */
function startJobs(app: ZodApp, deps: Deps, metrics: Metrics, timings: BuildOptions['jobs'] = {}): () => void {
  const jobs = featureJobs(deps, app.log);
  const worker = startJobWorker({
    db: deps.db,
    cipher: deps.cipher,
    log: app.log,
    handlers: Object.assign({}, ...jobs.map((j) => j.handlers)),
    ...(timings.pollMs ? { pollMs: timings.pollMs } : {}),
    ...(timings.backoffMs ? { backoffBaseMs: timings.backoffMs } : {}),
    onFinish: (job, outcome, seconds) => metrics.observeJob(job.kind, outcome, seconds),
  });
  app.addHook('onClose', async () => {
    await worker.stop();
    for (const j of jobs) j.close?.();
  });
  return () => void worker.poke();
}

/**
 * The whole service on one Fastify instance, ready to listen or to answer `inject`: the data key loaded,
 * migrations run, the demo grantor seeded, every route registered.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<ZodApp> {
  const app = Fastify({
    logger: { ...loggerOptions(config), stream: options.logStream ?? (config.logFormat === 'pretty' ? prettyLogStream() : undefined) },
    logController: new OneLinePerRequest(),
    // Slow senders (a body declared longer than what arrives, slowloris headers) are cut off; Node checks the
    // limits every connectionsCheckingInterval, so it is kept well under the shortest of them.
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: config.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, config.headersTimeoutMs / 2) },
    bodyLimit: config.jsonBodyLimit,
    trustProxy: config.trustProxy,
    // A request id from the reverse proxy (X-Request-Id) is kept when it is a plain token, so its logs join ours.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    // Result links carry their signed token in the path (calls.enlace: up to 4000 characters).
    routerOptions: { maxParamLength: 4096 },
    frameworkErrors: frameworkErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializerCompiler);
  // Off unless a collector is configured; registered before every route so each request gets its span.
  const tracing = startTracing(config.tracing, { role: config.processRole, version: serviceVersion() });
  if (tracing) await app.register(tracing.plugin);

  const db =
    options.db ??
    createDatabase(config.database, {
      onPoolError: (err) => app.log.error({ err }, 'an idle database connection failed'),
    });
  if (!options.db) app.addHook('onClose', async () => db.destroy());

  try {
    const cipher = openCipher(app, config);
    const applied = await migrateToLatest(db);
    if (applied.length > 0) app.log.info({ migrations: applied }, 'database migrated');
    const caches = options.caches ?? new AppCaches();
    const demo = await seedDemoGrantor({ db, caches }, config.demoGrantor);
    app.log.info({ outcome: demo }, 'demo grantor');
    if (config.demoGrantor) {
      // The demo needs postal codes; --if-empty never replaces a catalogue an operator imported.
      const seeded = await seedSampleCatalogueIfEmpty({ db, caches });
      if (seeded) app.log.info({ rowsLoaded: seeded.rowsLoaded, rowsRejected: seeded.rowsRejected }, 'demo: the sample postal codes were imported');
    }
    const postalStatus = await catalogueStatus(db);
    const postalLine = catalogueStatusLog(postalStatus);
    app.log[postalLine.level]({ postalCodes: postalStatus.postalCodes, settlements: postalStatus.settlements }, postalLine.message);

    const blobs = createBlobStore(config, cipher);
    app.addHook('onClose', async () => blobs.close());
    app.log.info({ blobs: blobs.kind }, 'blob store ready');
    if (config.database.kind === 'postgres' && blobs.kind === 'filesystem') {
      app.log.warn('blobs are kept on the local disk (DATA_DIR/blobs): set S3_BUCKET when several nodes share the database');
    }

    const metrics = createMetrics(db);
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', request.id);
      runWithRequestId(request.id, done);
    });
    app.addHook('onResponse', async (request, reply) => {
      metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    });

    const { ocr, face } = startEngines(app, config, metrics, options);
    // Only a configured and checksum-verified model starts the recogniser's process (engines/speech/).
    const speech = await createSpeechRecognizer(config.speech, app.log);
    app.addHook('onClose', async () => speech.close());
    const deps: Deps = { config, db, cipher, blobs, ocr, face, speech: speech.recognizer, caches };
    registerErrorHandling(app, config.jsonBodyLimit);
    registerSecurityHeaders(app, { hstsMaxAgeSeconds: config.hstsMaxAgeSeconds });
    registerNulGuard(app);
    // Before any route: it hooks the costly ones as they are added.
    await registerRateLimits(app, config.rateLimits);
    await registerMultipart(app, uploadLimits(config));
    await registerOpenApi(app, serviceVersion(), uploadLimits(config).fileBytes);
    registerHealthRoutes(app, deps, migrationsComplete);
    registerMetricsRoute(app, metrics, config.metricsToken);
    const wakeJobs = config.processRole === 'api' ? undefined : startJobs(app, deps, metrics, options.jobs);
    app.log.info({ role: config.processRole }, processRoleLine[config.processRole]);
    if (config.processRole !== 'worker') {
      await registerFeatures(app, deps, { ...(wakeJobs ? { wakeJobs } : {}), ...(options.recordingHandlers ? { recordingHandlers: options.recordingHandlers } : {}) });
      registerOpenApiRoute(app);
      const web = await registerWeb(app, config, [{ prefix: '/console', root: config.console.dist, contentSecurityPolicy: consoleContentSecurityPolicy }]);
      if (!web.available) app.log.warn({ webDist: config.webDist }, 'the web app is not built: run npm run build');
      if (!web.subApps['/console']) app.log.warn({ consoleDist: config.console.dist }, 'the review console is not built: run npm run build');
    }
    // Last, so the spans of the jobs and engines closed before it are still sent.
    if (tracing) app.addHook('onClose', () => tracing.shutdown());
    await app.ready();
    return app;
  } catch (error) {
    await app.close().catch(() => undefined);
    await tracing?.shutdown().catch(() => undefined);
    throw error;
  }
}

/**
 * The OCR and face engine providers of this process, closed with the app: local engines started on first use, or
 * with ENGINE_SERVICE_URL the workers' (engines/remote), whose busy answer is a local busy. A worker with
 * ENGINE_SERVICE_TOKEN serves its own to the API nodes.
 */
function startEngines(app: ZodApp, config: Config, metrics: ReturnType<typeof createMetrics>, options: BuildOptions) {
  const { engineService } = config;
  const remote = engineService.urls.length > 0 && engineService.token ? { urls: engineService.urls, token: engineService.token } : undefined;
  const workers = config.engineWorkers;
  const lazyOcr = busyWhenRemoteBusy(
    lazyOcrEngine(remote ? async () => remoteOcrEngine(remote) : () => createOcrEngine(workers ? { textWorkers: workers } : {}), defaultMaxInFlightReads, config.engineQueue, config.engineIdleCloseMs),
  );
  const ocr = metrics.instrumentEngine('ocr', options.wrapOcr ? options.wrapOcr(lazyOcr) : lazyOcr, defaultMaxInFlightReads);
  app.addHook('onClose', async () => ocr.close());
  const face = metrics.instrumentEngine(
    'face',
    busyWhenRemoteBusy(
      lazyFaceEngine(remote ? async () => remoteFaceEngine(remote) : () => createFaceEngine(workers ? { workers } : {}), defaultMaxInFlightDecisions, config.engineQueue, config.engineIdleCloseMs),
    ),
    defaultMaxInFlightDecisions,
  );
  app.addHook('onClose', async () => face.close());
  if (engineService.token && !remote && config.processRole !== 'api') {
    registerEngineService(app, { ocr, face }, engineService.token);
    app.log.info('engine service on: API nodes with ENGINE_SERVICE_URL send their OCR and face work here');
  }
  if (remote) app.log.info({ engineService: remote.urls }, 'OCR and face work is sent to the engine service');
  return { ocr, face };
}
