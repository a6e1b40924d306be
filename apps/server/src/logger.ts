import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import type { DestinationStream, LoggerOptions } from 'pino';
import pinoPretty from 'pino-pretty';
import type { Config } from './config.js';
import { isServicePath } from './http/paths.js';

/** Wire names that carry personal data or secrets (docs/flow.md §3); never written to a log. */
const sensitiveFields = [
  'apikey',
  'authorization',
  'cookie',
  'x-consumer-custom-id',
  'token',
  'jwt',
  'key',
  'password',
  'nombreCompleto',
  'nombre',
  'nombres',
  'apellidoPaterno',
  'apellidoMaterno',
  'name',
  'telefono',
  'phone',
  'movil',
  'number',
  'correoElectronico',
  'email',
  'curp',
  'dni',
  'claveElector',
  'cic',
  'ocr',
  'fNac',
  'fechaNacimiento',
  'nacimiento',
  'calle',
  'calleCompleta',
  'colonia',
  'numeroExterior',
  'numeroInterior',
  'street',
  'address',
  'cp',
  'codigoPostal',
  'data_user',
  'dato',
  'event',
  'ocrFront',
  'ocrBack',
  'sdp',
];

const sensitive = new Set(sensitiveFields.map((field) => field.toLowerCase()));
const maxDepth = 6;

/**
 * A copy of a log object with every sensitive field, at any depth, replaced. Run only for lines actually
 * written (pino's `formatters.log`), so the per-request child loggers cost nothing; pino's own path-based
 * redaction re-runs on every child's bindings.
 */
export function redactSensitive(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object' || depth > maxDepth) return value;
  if (Array.isArray(value)) return value.map((item) => redactSensitive(item, depth + 1));
  // Requests, replies and errors go through their own serializers, which log no personal data.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = sensitive.has(key.toLowerCase()) ? '[redacted]' : redactSensitive(item, depth + 1);
  }
  return copy;
}

/**
 * The SPA's entry route carries the api key in its path (/{apikey}) and popup mode carries a jwt in its
 * query, so only service paths are logged verbatim, always without their query string.
 */
export function loggableUrl(url: string): string {
  const pathOnly = url.split('?')[0] ?? '';
  if (isServicePath(pathOnly) || pathOnly.startsWith('/assets/')) return pathOnly;
  return '[page]';
}

export function loggerOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    formatters: { log: (object) => redactSensitive(object) as Record<string, unknown> },
    serializers: {
      req(request: FastifyRequest) {
        return { method: request.method, url: loggableUrl(request.url), route: request.routeOptions?.url };
      },
      res(reply: { statusCode: number }) {
        return { statusCode: reply.statusCode };
      },
    },
  };
}

/**
 * One log line per request, written when it is answered, with the method, route and status (Fastify's default
 * writes two: received and completed). Error and not-found lines stay as Fastify writes them.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: Math.round(reply.elapsedTime) };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Human-readable lines for a terminal (pino-pretty, written synchronously on this thread); JSON everywhere else.
 * One line per entry, its fields inline, so a request stays one line on the terminal as in the JSON log.
 */
export function prettyLogStream(destination?: NodeJS.WritableStream, colorize = true): DestinationStream {
  return pinoPretty({ colorize, sync: true, singleLine: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', ...(destination ? { destination } : {}) });
}
