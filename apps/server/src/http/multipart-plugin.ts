import fastifyMultipart from '@fastify/multipart';
import type { MultipartField } from '@kyc/contracts';
import type { UploadLimits } from '../uploads/limits.js';
import type { ZodApp } from './deps.js';
import { errorResponses, HttpError } from './errors.js';

export const multipartContentType = 'multipart/form-data';

/**
 * The route schema of a multipart call of the contracts: its headers, multipart bodies accepted, 200 and error bodies.
 * `x-multipart` carries the fields to /openapi.json only (http/openapi-enrich.ts); the files are read by readUpload.
 */
export function multipartRouteSchema<H, R>(call: { summary: string; headers: H; response: R; multipart?: Record<string, MultipartField> }, tag: string) {
  return {
    summary: call.summary,
    tags: [tag],
    headers: call.headers,
    consumes: [multipartContentType],
    response: { 200: call.response, ...errorResponses },
    'x-multipart': call.multipart ?? {},
  };
}

/**
 * Multipart parsing, one file per request, within the limits (read with readUpload). Only routes whose schema
 * declares `consumes: ['multipart/form-data']` take multipart bodies; the others keep refusing them with 415.
 */
export async function registerMultipart(app: ZodApp, limits: UploadLimits): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: limits.fileBytes,
      files: 1,
      fields: limits.fields,
      fieldSize: limits.fieldBytes,
      parts: limits.fields + 1,
    },
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.isMultipart() && !request.routeOptions.schema?.consumes?.includes(multipartContentType)) {
      done(new HttpError(415, `Unsupported media type ${request.headers['content-type'] ?? multipartContentType}`));
      return;
    }
    done();
  });
}
