import { errorBody, errorTexts, type ErrorBody } from '@kyc/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { BlobStoreUnavailableError } from '../blob/blob-store.js';
import { RefusedError } from '../domain/refusal.js';
import { isServicePath } from './paths.js';
import { refusalBody } from './reasons.js';

/** An error whose status and texts may be shown to the caller (message_client is the user-facing Spanish text). */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly statusCode: number,
    message: string,
    readonly messageClient?: string,
    /** A lock's end (ISO 8601), sent as locked_until. */
    readonly lockedUntil?: string,
  ) {
    super(message);
  }
}

/** A service's refusal as an HttpError (status and texts from the reasons table), for a route that must see its status. */
export function refusedHttpError(error: RefusedError): HttpError {
  const body = refusalBody(error.refusal);
  return new HttpError(body.status, body.message, body.message_client, body.locked_until);
}

/** Response schemas for the error statuses of every route, for the OpenAPI document. */
export const errorResponses = { '4xx': errorBody, '5xx': errorBody } as const;

const contextLabels: Record<string, string> = {
  headers: 'header',
  body: 'body field',
  querystring: 'query parameter',
  params: 'path parameter',
};

function describeIssue(context: string, issue: FastifySchemaValidationError): string {
  const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const label = contextLabels[context] ?? context;
  const what = field ? `${label} ${field}` : context;
  const message = issue.message ?? 'is invalid';
  return /received undefined$/.test(message) ? `${what} is missing` : `${what}: ${message}`;
}

function validationMessage(context: string, issues: FastifySchemaValidationError[]): string {
  const described = issues.slice(0, 5).map((issue) => describeIssue(context, issue));
  const more = issues.length > 5 ? ` (and ${issues.length - 5} more)` : '';
  return `Invalid request: ${described.join('; ')}${more}`;
}

function clientErrorMessage(error: FastifyError, request: FastifyRequest, bodyLimit: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'Malformed JSON body';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'Empty JSON body';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `Request body is larger than ${request.routeOptions.bodyLimit ?? bodyLimit} bytes`;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `Unsupported media type ${request.headers['content-type'] ?? '(none)'}`;
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Request body size does not match Content-Length';
    default:
      // JSON parse errors of secure-json-parse (e.g. __proto__ keys) carry a 400 status and a safe message.
      return error instanceof SyntaxError ? 'Malformed JSON body' : error.message;
  }
}

function send(reply: FastifyReply, body: ErrorBody): FastifyReply {
  return reply.code(body.status).type('application/json; charset=utf-8').send(body);
}

export function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const pathname = request.url.split('?')[0] ?? '';
  const message = isServicePath(pathname) ? `Route ${request.method} ${pathname} not found` : 'Not found';
  return send(reply, { status: 404, message });
}

/** Errors Fastify raises before routing (a malformed URL): same format, without echoing the URL. */
export function frameworkErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  request.log.info({ status, code: error.code }, 'request refused before routing');
  send(reply, { status, message: error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : 'Bad request' });
}

/**
 * Seconds a client is asked to wait after a 503 (an engine's queue full or its wait ran out, evidence storage down):
 * about one face decision, so the slot a retry finds is likely free.
 */
export const serviceUnavailableRetryAfterSeconds = 5;

/** One error format for every route: { status, message, message_client? }, never a stack trace. */
export function registerErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  // Every 503 says when to come back, whichever route or layer answered it.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(serviceUnavailableRetryAfterSeconds));
    return payload;
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      request.log.info({ status: error.statusCode, reason: error.message }, 'request refused');
      return send(reply, {
        status: error.statusCode,
        message: error.message,
        ...(error.messageClient ? { message_client: error.messageClient } : {}),
        ...(error.lockedUntil ? { locked_until: error.lockedUntil } : {}),
      });
    }
    if (error instanceof RefusedError) {
      // A service's refusal: its status comes from the reasons table (reasons.ts).
      const body = refusalBody(error.refusal);
      request.log.info({ status: body.status, reason: body.message }, 'request refused');
      return send(reply, body);
    }
    if (error instanceof BlobStoreUnavailableError) {
      // Nothing was stored: the caller must retry rather than take the upload (or the read) as done.
      request.log.error({ err: error }, 'blob store unavailable');
      return send(reply, { status: 503, message: 'Evidence storage is unavailable; try again', message_client: errorTexts.serviceUnavailable });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const message = validationMessage(error.validationContext ?? 'request', error.validation);
      request.log.info({ status: 400, reason: message }, 'invalid request');
      return send(reply, { status: 400, message });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ issues: error.cause.issues.map((i) => i.path.join('.')) }, 'response does not match its schema');
      return send(reply, { status: 500, message: 'Internal server error' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = clientErrorMessage(error, request, bodyLimit);
      request.log.info({ status, code: error.code, reason: message }, 'request refused');
      return send(reply, { status, message });
    }
    request.log.error({ err: error }, 'request failed');
    return send(reply, { status: status >= 500 && status < 600 ? status : 500, message: 'Internal server error' });
  });
}
