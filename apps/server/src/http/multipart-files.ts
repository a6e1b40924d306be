import type { MultipartField } from '@kyc/contracts';
import type { MultipartFile } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { UploadLimits } from '../uploads/limits.js';
import type { UploadedFile } from '../uploads/read-multipart.js';
import { isAccepted, sniffType, typeName } from '../uploads/sniff.js';
import { HttpError } from './errors.js';

// Part headers and boundaries around the files.
const framingBytes = 64 * 1024;

async function bufferFile(part: MultipartFile, limits: UploadLimits): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of part.file) chunks.push(chunk as Buffer);
  // busboy stops at the limit and marks the stream truncated rather than failing it.
  if (part.file.truncated) throw new HttpError(413, `The file ${part.fieldname} is larger than ${limits.fileBytes} bytes`);
  return Buffer.concat(chunks);
}

function multipartFailure(error: unknown, names: string[]): HttpError {
  switch ((error as { code?: string }).code) {
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new HttpError(415, 'Unsupported media type: expected a multipart/form-data body');
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new HttpError(400, `Invalid request: only the files ${names.join(' and ')} are accepted`);
    default:
      return new HttpError(400, 'Invalid request: malformed multipart body');
  }
}

/**
 * Reads a multipart body of files only (every field of `spec` a file), each within UPLOAD_LIMIT: refuses
 * unknown, repeated, text, missing and empty fields, and files whose sniffed type the spec does not accept.
 * Files are buffered in memory and never stored.
 */
export async function readFiles<K extends string>(request: FastifyRequest, spec: Readonly<Record<K, MultipartField>>, limits: UploadLimits): Promise<Record<K, UploadedFile>> {
  const names = Object.keys(spec) as K[];
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > names.length * limits.fileBytes + framingBytes) {
    throw new HttpError(413, `The body is larger than ${names.length} files of ${limits.fileBytes} bytes`);
  }
  const buffers = new Map<K, Buffer>();
  try {
    const parts = request.parts({ limits: { files: names.length, fields: 0, parts: names.length, fileSize: limits.fileBytes } });
    for await (const part of parts) {
      const name = part.fieldname as K;
      if (!Object.hasOwn(spec, name)) throw new HttpError(400, `Invalid request: unknown multipart field ${part.fieldname}`);
      if (part.type !== 'file') throw new HttpError(400, `Invalid request: multipart field ${name} must be a file`);
      if (buffers.has(name)) throw new HttpError(400, `Invalid request: multipart field ${name} is repeated`);
      buffers.set(name, await bufferFile(part, limits));
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    request.log.info({ code: (error as { code?: string }).code, reason: (error as Error).message }, 'multipart body refused');
    throw multipartFailure(error, names);
  }
  const missing = names.filter((name) => spec[name].required && !buffers.has(name));
  if (missing.length > 0) {
    throw new HttpError(400, `Invalid request: ${missing.length === 1 ? `the file ${missing[0]} is missing` : `the files ${missing.join(', ')} are missing`}`);
  }
  const files = {} as Record<K, UploadedFile>;
  for (const name of names) {
    const buffer = buffers.get(name);
    if (!buffer) continue;
    if (buffer.length === 0) throw new HttpError(400, `Invalid request: the file ${name} is empty`);
    const accept = spec[name].accept ?? [];
    const sniffed = sniffType(buffer);
    if (!isAccepted(sniffed, accept)) {
      throw new HttpError(415, `Unsupported file type: the file ${name} is ${typeName(sniffed)}; accepted: ${accept.map(typeName).join(', ')}`);
    }
    files[name] = { fieldName: name, buffer, sniffedType: sniffed, size: buffer.length };
  }
  return files;
}
