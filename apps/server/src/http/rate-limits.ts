import { createHash } from 'node:crypto';
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import { errorTexts } from '@kyc/contracts';
import { redoPaths, redoTokenHeader, routes, type RouteName } from '@kyc/contracts';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { ZodApp } from './deps.js';
import { HttpError } from './errors.js';
import type { CostClass, RateLimitConfig } from './rate-limit-config.js';

/**
 * The cost class of every call that costs CPU, storage, an SMS or an e-mail (issue #15). Calls not listed are
 * cheap reads (health, parameters, the OpenAPI document) or bound to a live connection id (real-time answer and
 * close). A new costly call gets its row here.
 */
export const costOfRoute: Partial<Record<RouteName, CostClass>> = {
  ocr: 'upload',
  file: 'upload',
  otp: 'upload',
  videoTokenCode: 'upload',
  videoToken: 'upload',
  publicVideoToken: 'upload',
  publicOtp: 'upload',
  idCalibrate: 'upload',
  facesCompare: 'upload',
  tokenSms: 'sms',
  verifySms: 'sms',
  emailResult: 'email',
  updateCycle: 'events',
  auditEvent: 'events',
  queryScore: 'documents',
  processDocuments: 'documents',
  nom151: 'documents',
  enlace: 'documents',
  transactionEvents: 'documents',
  renapo: 'checks',
  ine: 'checks',
  postalCodes: 'checks',
  recordConnections: 'realtime',
  launcherIdentity: 'launcher',
  launcherAuth: 'launcher',
  launcherVerify: 'launcher',
};

const dimensions = ['transaction', 'ip', 'key'] as const;
type Dimension = (typeof dimensions)[number];

const limitOf = { transaction: 'perTransaction', ip: 'perIp', key: 'perKey' } as const;

/** Counter keys never hold a credential: keys and link tokens are hashed (the counters may live in a shared Redis). */
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url').slice(0, 22);

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text && text.trim() ? text.trim() : undefined;
}

function bodyField(request: FastifyRequest, name: string): string | undefined {
  const body = request.body;
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

/**
 * Who a request counts against. The transaction: the transaccion header, or the events' body ids, or the result
 * link's credential (one link, one transaction). The key: the publishable api key, or the secret key of
 * server-to-server calls. Unverified values are fine here: a made-up key is refused by the route anyway, and the
 * per-IP limit holds whatever the headers say.
 */
export function limitSubject(request: FastifyRequest, dimension: Dimension): string | undefined {
  switch (dimension) {
    case 'ip':
      return normalizeIP(request.ip);
    case 'transaction': {
      const trx = header(request, 'transaccion') ?? bodyField(request, 'trx_id') ?? bodyField(request, 'uuid_trx');
      if (trx) return trx.toLowerCase();
      const link = header(request, 'x-consumer-custom-id');
      if (link) return `link:${digest(link)}`;
      const redo = header(request, redoTokenHeader);
      return redo ? `redo:${digest(redo)}` : undefined;
    }
    case 'key': {
      const apikey = header(request, 'apikey');
      if (apikey) return digest(apikey);
      const bearer = /^Bearer\s+(\S+)$/i.exec(header(request, 'authorization') ?? '')?.[1];
      return bearer ? digest(bearer) : undefined;
    }
  }
}

const routeKey = (method: string, url: string) => `${method.toUpperCase()} ${url}`;

type Limiter = ReturnType<ZodApp['createRateLimit']>;

/**
 * @fastify/rate-limit with its counters in Redis when REDIS_URL is set (shared by every node), in this process
 * otherwise; a preValidation hook (the JSON body is parsed, a multipart body not yet read) on every costly route
 * checks the transaction, IP and key limits of its class. Over a limit: 429 in the project's error format with
 * Retry-After, and the route does nothing. Registered before the routes (it watches them being added).
 */
export async function registerRateLimits(app: ZodApp, config: RateLimitConfig): Promise<{ redis: Redis | undefined }> {
  if (!config.enabled) {
    app.log.warn('abuse limits are off (RATE_LIMITS=off)');
    return { redis: undefined };
  }
  const redis = config.redisUrl ? new Redis(config.redisUrl, { lazyConnect: false, maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2000 }) : undefined;
  if (redis) {
    redis.on('error', (err: Error) => app.log.warn({ err: err.message }, 'rate-limit store (Redis) unreachable: limits are not counted meanwhile'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  await app.register(fastifyRateLimit, {
    global: false,
    // A Redis outage must not stop honest customers: requests pass uncounted (and the outage is logged).
    skipOnError: true,
    ...(redis ? { redis, nameSpace: 'kyc-rl:' } : {}),
  });
  app.log.info({ store: redis ? 'redis' : 'memory', windowMs: config.windowMs }, 'abuse limits on');

  const classOf = new Map<string, CostClass>();
  for (const [name, cls] of Object.entries(costOfRoute) as [RouteName, CostClass][]) {
    classOf.set(routeKey(routes[name].method, routes[name].path), cls);
  }
  // A review's redo link (features/redo, not a spec route): its captures read documents like /v2/ocr and /v1/file, faces like /v1/otp.
  for (const [path, cls] of [
    [redoPaths.id, 'upload'],
    [redoPaths.proof, 'upload'],
    [redoPaths.faceCode, 'upload'],
    [redoPaths.faceVideo, 'upload'],
    [redoPaths.finish, 'documents'],
  ] as const)
    classOf.set(routeKey('POST', path), cls);

  const limiters = new Map<string, Limiter>();
  function limiter(cls: CostClass, dimension: Dimension): Limiter {
    const id = `${cls}:${dimension}`;
    let made = limiters.get(id);
    if (!made) {
      made = app.createRateLimit({
        max: config.classes[cls][limitOf[dimension]],
        timeWindow: config.windowMs,
        keyGenerator: (request) => `${id}:${limitSubject(request, dimension) ?? ''}`,
      });
      limiters.set(id, made);
    }
    return made;
  }

  function hookFor(cls: CostClass) {
    return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      for (const dimension of dimensions) {
        if (config.classes[cls][limitOf[dimension]] <= 0 || limitSubject(request, dimension) === undefined) continue;
        const verdict = await limiter(cls, dimension)(request);
        if (verdict.isAllowed || !verdict.isExceeded) continue;
        const seconds = Math.max(1, verdict.ttlInSeconds);
        reply.header('retry-after', String(seconds));
        request.log.warn({ costClass: cls, dimension, max: verdict.max }, 'abuse limit reached');
        throw new HttpError(
          429,
          `Too many ${cls} requests for this ${dimension === 'ip' ? 'client address' : dimension === 'key' ? 'api key' : 'transaction'} ` +
            `(at most ${verdict.max} per ${Math.round(config.windowMs / 1000)} s); retry in ${seconds} s`,
          errorTexts.tooManyRequests,
        );
      }
    };
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const cls = methods.map((m) => classOf.get(routeKey(m, route.url))).find((c) => c !== undefined);
    if (!cls) return;
    const hook = hookFor(cls);
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [hook] : Array.isArray(existing) ? [hook, ...existing] : [hook, existing];
  });
  return { redis };
}
