import type { MultipartField } from '@kyc/contracts';
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { RefusedError } from '../domain/refusal.js';
import { maxRequestBytes, type UploadLimits } from './limits.js';
import { isAccepted, sniffType, typeName, type SniffedType } from './sniff.js';

export interface UploadedFile {
  fieldName: string;
  buffer: Buffer;
  /** What the bytes are (magic numbers); a QuickTime file may stand for an accepted MP4 (see isAccepted). */
  sniffedType: SniffedType;
  size: number;
  /** The client's file name: informative only, never trusted. */
  filename?: string;
}

export interface Upload {
  fields: Record<string, string>;
  file: UploadedFile;
}

export interface ReadUploadOptions {
  limits: UploadLimits;
  /** Spanish text for refusals the user fixes by capturing again (file too large, empty, of another type). */
  retryMessage?: string;
}

/** Errors of @fastify/multipart and busboy, by code, as the refusals the caller sees. */
function multipartFailure(error: unknown, { limits, retryMessage }: ReadUploadOptions): RefusedError {
  switch ((error as { code?: string }).code) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new RefusedError('unsupported_media_type', 'Unsupported media type: expected a multipart/form-data body');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new RefusedError('payload_too_large', `The file is larger than ${limits.fileBytes} bytes`, retryMessage);
    case 'FST_FILES_LIMIT':
      return new RefusedError('invalid_request', 'Invalid request: only one file per request is accepted');
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new RefusedError('invalid_request', `Invalid request: at most ${limits.fields} multipart fields are accepted`);
    case 'FST_PROTO_VIOLATION':
      return new RefusedError('invalid_request', 'Invalid request: reserved multipart field name');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new RefusedError('invalid_request', 'Invalid request: multipart fields must be plain text');
    default:
      return new RefusedError('invalid_request', 'Invalid request: malformed multipart body');
  }
}

async function bufferFile(part: MultipartFile, options: ReadUploadOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  // busboy stops at the limit and marks the stream truncated rather than failing it.
  if (part.file.truncated) throw new RefusedError('payload_too_large', `The file is larger than ${options.limits.fileBytes} bytes`, options.retryMessage);
  return Buffer.concat(chunks);
}

function textValue(part: MultipartValue, limits: UploadLimits): string {
  if (part.valueTruncated) throw new RefusedError('payload_too_large', `Multipart field ${part.fieldname} is longer than ${limits.fieldBytes} bytes`);
  if (typeof part.value !== 'string') throw new RefusedError('invalid_request', `Invalid request: multipart field ${part.fieldname} must be plain text`);
  // As in JSON bodies (http/nul-guard.ts): PostgreSQL text cannot hold it and no field has a use for it.
  if (part.value.includes('\u0000')) throw new RefusedError('invalid_request', `Invalid request: multipart field ${part.fieldname} contains a NUL character (U+0000)`);
  return part.value;
}

/**
 * Reads a multipart request described by a contract's `multipart` map: text fields, and exactly one file,
 * buffered within the limits. Refuses (RefusedError) unknown, repeated and missing fields, an empty file, and a
 * file whose sniffed type the contract does not accept. Nothing is stored here.
 */
export async function readUpload(request: FastifyRequest, spec: Readonly<Record<string, MultipartField>>, options: ReadUploadOptions): Promise<Upload> {
  const fileFields = Object.keys(spec).filter((name) => spec[name]?.kind === 'file');
  const [fileField] = fileFields;
  if (fileField === undefined || fileFields.length > 1) throw new Error('readUpload needs a multipart spec with exactly one file field');

  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxRequestBytes(options.limits)) {
    throw new RefusedError('payload_too_large', `The file is larger than ${options.limits.fileBytes} bytes`, options.retryMessage);
  }

  const fields: Record<string, string> = {};
  const seen = new Set<string>();
  let file: { buffer: Buffer; filename?: string } | undefined;
  try {
    for await (const part of request.parts()) {
      const name = part.fieldname;
      const field = Object.hasOwn(spec, name) ? spec[name] : undefined;
      if (!field) throw new RefusedError('invalid_request', `Invalid request: unknown multipart field ${name}`);
      if (seen.has(name)) throw new RefusedError('invalid_request', `Invalid request: multipart field ${name} is repeated`);
      seen.add(name);
      if (part.type === 'file') {
        if (field.kind !== 'file') throw new RefusedError('invalid_request', `Invalid request: multipart field ${name} must be text, not a file`);
        file = { buffer: await bufferFile(part, options), ...(part.filename ? { filename: part.filename } : {}) };
      } else {
        if (field.kind !== 'text') throw new RefusedError('invalid_request', `Invalid request: multipart field ${name} must be a file`);
        fields[name] = textValue(part, options.limits);
      }
    }
  } catch (error) {
    if (error instanceof RefusedError) throw error;
    request.log.info({ code: (error as { code?: string }).code, reason: (error as Error).message }, 'multipart body refused');
    throw multipartFailure(error, options);
  }

  const missing = Object.entries(spec)
    .filter(([name, field]) => field.required && !seen.has(name))
    .map(([name]) => name);
  if (missing.length > 0) {
    const what = missing.length === 1 ? `multipart field ${missing[0]} is missing` : `multipart fields ${missing.join(', ')} are missing`;
    throw new RefusedError('invalid_request', `Invalid request: ${what}`);
  }
  if (!file) throw new RefusedError('invalid_request', `Invalid request: multipart field ${fileField} is missing`);
  if (file.buffer.length === 0) throw new RefusedError('invalid_request', `Invalid request: the file ${fileField} is empty`, options.retryMessage);

  const accept = spec[fileField]?.accept ?? [];
  const sniffed = sniffType(file.buffer);
  if (!isAccepted(sniffed, accept)) {
    throw new RefusedError('unsupported_media_type', `Unsupported file type: the file is ${typeName(sniffed)}; accepted: ${accept.map(typeName).join(', ')}`, options.retryMessage);
  }
  const uploaded: UploadedFile = { fieldName: fileField, buffer: file.buffer, sniffedType: sniffed, size: file.buffer.length };
  if (file.filename) uploaded.filename = file.filename;
  return { fields, file: uploaded };
}
