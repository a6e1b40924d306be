/**
 * What /openapi.json adds to the routes' own schemas so that a client generator gets a usable SDK: an operationId
 * per call (the contracts' route name), a tag for every operation, the security scheme each call takes, the
 * multipart bodies of the upload calls, and one shared Error component.
 */
import { credentials, routes, type MultipartField } from '@kyc/contracts';
import { addExamples, addResponseExample, errorExamples } from './openapi-examples.js';

export const securitySchemeNames = { publishable: 'publishableKey', secret: 'secretKey', resultLink: 'resultLinkToken', transaction: 'transactionToken' } as const;

const operationIds = new Map<string, string>(Object.entries(routes).map(([name, route]) => [`${route.method} ${route.path}`, name]));

/** `getReady` for GET /readyz when the contracts do not name it; the contracts' name otherwise. */
export function operationIdOf(method: string, url: string): string {
  const named = operationIds.get(`${method} ${url}`);
  if (named) return named;
  const words = url
    .split(/[/_.:-]+/)
    .filter(Boolean)
    .map((word) => word.replace(/[^A-Za-z0-9]/g, ''));
  return [method.toLowerCase(), ...words.map((word) => word.charAt(0).toUpperCase() + word.slice(1))].join('');
}

/** The area of a path, as the tag of an operation that did not name one. */
export function defaultTagOf(url: string): string {
  if (url.startsWith('/record/')) return 'realtime';
  if (url.startsWith('/v1/launcher/')) return 'launcher';
  if (url === '/healthz' || url === '/readyz') return 'operations';
  return 'flow';
}

/** The multipart body of an upload call as JSON Schema: text fields as strings, files as binary strings. */
export function multipartBodySchema(fields: Record<string, MultipartField>, maxFileBytes: number): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    properties[name] =
      field.kind === 'file'
        ? {
            type: 'string',
            format: 'binary',
            maxLength: maxFileBytes,
            description: `A file${field.accept ? ` (${field.accept.join(', ')}, recognised by its content)` : ''} of at most ${maxFileBytes} bytes.`,
          }
        : { type: 'string', maxLength: 10_240 };
  }
  const required = Object.entries(fields)
    .filter(([, field]) => field.required)
    .map(([name]) => name);
  return { type: 'object', properties, required, additionalProperties: false };
}

type Schema = Record<string, unknown>;

function headerNames(schema: Schema): string[] {
  const headers = schema.headers as { properties?: Record<string, unknown> } | undefined;
  return Object.keys(headers?.properties ?? {}).map((name) => name.toLowerCase());
}

/**
 * Which credential an operation takes: a route's own, else its class in the contracts' credentials table (issue
 * #15), else the headers it declares.
 */
export function securityOf(schema: Schema, operationId?: string): Array<Record<string, string[]>> | undefined {
  if (schema.security) return schema.security as Array<Record<string, string[]>>;
  const credential = operationId === undefined ? undefined : (credentials as Record<string, string>)[operationId];
  if (credential === 'server') return [{ [securitySchemeNames.secret]: [] }];
  if (credential === 'flowRead') {
    return [
      { [securitySchemeNames.publishable]: [], [securitySchemeNames.transaction]: [] },
      { [securitySchemeNames.publishable]: [], [securitySchemeNames.secret]: [] },
    ];
  }
  const headers = headerNames(schema);
  if (headers.includes('apikey')) return [{ [securitySchemeNames.publishable]: [] }];
  if (headers.includes('x-consumer-custom-id')) return [{ [securitySchemeNames.resultLink]: [] }];
  return undefined;
}

/** The route's transformed schema, with its operationId, tag, security, multipart body and examples filled in. */
export function enrichOperation(schema: Schema, method: string, url: string, maxFileBytes: number): Schema {
  const { 'x-multipart': multipart, ...rest } = schema;
  const enriched: Schema = { ...rest, operationId: rest.operationId ?? operationIdOf(method, url) };
  if (!Array.isArray(rest.tags) || rest.tags.length === 0) enriched.tags = [defaultTagOf(url)];
  const security = securityOf(rest, enriched.operationId as string);
  if (security) enriched.security = security;
  if (multipart && !rest.body) enriched.body = multipartBodySchema(multipart as Record<string, MultipartField>, maxFileBytes);
  for (const part of ['headers', 'params', 'querystring', 'body'] as const) {
    if (enriched[part]) enriched[part] = addExamples(enriched[part]);
  }
  if (enriched.response) enriched.response = addResponseExample(enriched.operationId as string, enriched.response);
  return enriched;
}

export const errorComponent = {
  type: 'object',
  description: 'Every error: the HTTP status, a message for the integrator and, when the person may see it, message_client in Spanish.',
  properties: { status: { type: 'integer' }, message: { type: 'string' }, message_client: { type: 'string' } },
  required: ['status', 'message'],
  examples: errorExamples,
} as const;

interface OpenApiDocument {
  components?: { schemas?: Record<string, unknown> };
  paths?: Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
}

/** Error responses point at one shared component instead of repeating the same schema in every operation. */
export function shareErrorComponent<T extends OpenApiDocument>(document: T): T {
  document.components = { ...document.components, schemas: { ...document.components?.schemas, Error: errorComponent } };
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^[45]/.test(status)) continue;
        for (const media of Object.values(response.content ?? {})) media.schema = { $ref: '#/components/schemas/Error' };
      }
    }
  }
  return document;
}
