import type { FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';
import type { Config } from './config.js';
import { isServicePath } from './http/paths.js';

/** Wire names that carry personal data or secrets (spec §3); never written to a log. */
const sensitiveFields = [
  'apikey', 'authorization', 'cookie', 'x-consumer-custom-id', 'token', 'jwt', 'key', 'password',
  'nombreCompleto', 'nombre', 'nombres', 'apellidoPaterno', 'apellidoMaterno', 'name', 'telefono', 'phone',
  'movil', 'number', 'correoElectronico', 'email', 'curp', 'dni', 'claveElector', 'cic', 'ocr', 'fNac',
  'fechaNacimiento', 'nacimiento', 'calle', 'calleCompleta', 'colonia', 'numeroExterior', 'numeroInterior',
  'street', 'address', 'cp', 'codigoPostal', 'data_user', 'dato', 'event', 'ocrFront', 'ocrBack', 'sdp',
];

/** Each field at the top level and up to three levels deep (e.g. req.body.phone.number). */
function redactPaths(): string[] {
  const paths: string[] = [];
  for (const field of sensitiveFields) {
    const plain = /^[A-Za-z_$][\w$]*$/.test(field);
    const key = plain ? field : `["${field}"]`;
    const nested = plain ? `.${field}` : key;
    paths.push(key, `*${nested}`, `*.*${nested}`, `*.*.*${nested}`);
  }
  return paths;
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
    redact: { paths: redactPaths(), censor: '[redacted]' },
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
