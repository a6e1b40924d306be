import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

const nul = '\u0000';

/**
 * Where the first U+0000 sits in a parsed JSON value (a string or an object key), as a dotted path ('' for the
 * value itself); undefined when there is none. Walks with its own stack: a body may nest 100,000 levels deep.
 */
export function findNul(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [current, path] = stack.pop() as [unknown, string];
    if (typeof current === 'string') {
      if (current.includes(nul)) return path;
    } else if (current !== null && typeof current === 'object' && !ArrayBuffer.isView(current)) {
      // A binary body (the engine service's Buffer) holds bytes, not text: only parsed strings are checked.
      for (const [key, child] of Object.entries(current)) {
        const childPath = path ? `${path}.${key}` : key;
        if (key.includes(nul)) return childPath.replaceAll(nul, '\\u0000');
        stack.push([child, childPath]);
      }
    }
  }
  return undefined;
}

const contexts = [
  ['body', 'body field'],
  ['query', 'query parameter'],
  ['params', 'path parameter'],
] as const;

/**
 * Refuses a NUL character (U+0000) in any string of a request's JSON body, query or path with 400, before the
 * schemas run. PostgreSQL text cannot hold it (the insert failed with a 500 where SQLite stored it), and no field
 * of the API has a use for it: refused alike on every engine. Multipart text fields: uploads/read-multipart.ts.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const [key, label] of contexts) {
      const where = findNul(request[key]);
      if (where !== undefined) {
        throw new HttpError(400, `Invalid request: ${where ? `${label} ${where}` : key} contains a NUL character (U+0000)`);
      }
    }
  });
}
