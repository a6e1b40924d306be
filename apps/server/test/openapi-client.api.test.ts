/**
 * What an integrator does with /openapi.json: validate it, generate a TypeScript client from it (openapi-typescript),
 * compile a small integration against the generated types, and perform the ID upload with it (openapi-fetch).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { calls } from '@kyc/contracts';
import { generateFixtureSet, stripAccentsKeepEnye } from '@kyc/fixtures';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { trxHeaders } from './support/fixtures.js';
import { acceptConsents } from './support/journey.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// Inside the repository, so that the integration resolves openapi-fetch from its node_modules (git-ignored).
const scratchRoot = path.join(here, '.tmp');

const integration = `
import createClient from 'openapi-fetch';
import type { paths } from './api';

export interface Headers { apikey: string; transaccion: string; cliente: string }

/** Reads the front of an ID through the generated client: the call an integrator's back office makes. */
export async function readFront(baseUrl: string, headers: Headers, image: Blob): Promise<{ status: number; name: string | undefined }> {
  // The publishable key is the operation's security scheme: sent on every call of the client.
  const client = createClient<paths>({ baseUrl, headers: { apikey: headers.apikey } });
  const { data, response } = await client.POST('/v2/ocr', {
    params: { header: { transaccion: headers.transaccion, cliente: headers.cliente } },
    body: { uuidUser: headers.cliente, side: 'front', ine: image },
    bodySerializer(body) {
      const form = new FormData();
      for (const [name, value] of Object.entries(body)) form.append(name, value as string | Blob);
      return form;
    },
  });
  const ocrData = data?.payload.ocrData;
  const name = ocrData && 'nombreCompleto' in ocrData ? String(ocrData.nombreCompleto) : undefined;
  return { status: response.status, name };
}
`;

describe('an integrator generating a client from /openapi.json (sqlite)', () => {
  let t: TestApp;
  let scratch: string;
  let baseUrl: string;
  let document: Record<string, unknown>;

  beforeAll(async () => {
    t = await startTestApp({ name: 'sqlite' });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    mkdirSync(scratchRoot, { recursive: true });
    scratch = mkdtempSync(path.join(scratchRoot, 'client-'));
    document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('is a valid OpenAPI document with an operationId, a tag and the multipart body of every upload', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const operations = Object.values(
      document.paths as Record<
        string,
        Record<string, { operationId?: string; tags?: string[]; requestBody?: { content: Record<string, { schema: { properties: Record<string, { format?: string }> } }> } }>
      >,
    ).flatMap((p) => Object.values(p));
    const ids = operations.map((o) => o.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(operations.every((o) => (o.tags ?? []).length > 0)).toBe(true);
    const paths = document.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties: Record<string, { format?: string }> } }> } }>>;
    for (const [url, field] of [
      ['/v2/ocr', 'ine'],
      ['/v1/file', 'file'],
      ['/v1/otp', 'file'],
      ['/v2/videotoken', 'videotoken'],
    ] as const) {
      const body = paths[url]?.post?.requestBody?.content['multipart/form-data']?.schema;
      expect(body?.properties[field]?.format, url).toBe('binary');
    }
    const schemes = (document.components as { securitySchemes: Record<string, unknown> }).securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(['publishableKey', 'resultLinkToken', 'secretKey', 'transactionToken']);
  });

  it('gives an example, valid against its schema, for every parameter, every multipart text field and the error body', () => {
    interface StringSchema {
      type?: string;
      pattern?: string;
      minLength?: number;
      maxLength?: number;
      enum?: unknown[];
      format?: string;
      examples?: unknown[];
    }
    const invalid = (schema: StringSchema, value: unknown): string | undefined => {
      if (schema.enum && !schema.enum.includes(value)) return 'not in enum';
      if (schema.type !== 'string') return undefined;
      if (typeof value !== 'string') return 'not a string';
      if (schema.pattern && !new RegExp(schema.pattern).test(value)) return `does not match ${schema.pattern}`;
      if (schema.minLength !== undefined && value.length < schema.minLength) return 'too short';
      if (schema.maxLength !== undefined && value.length > schema.maxLength) return 'too long';
      return undefined;
    };
    const problems: string[] = [];
    type Operation = {
      parameters?: Array<{ name: string; in: string; example?: unknown; schema: StringSchema }>;
      requestBody?: { content: Record<string, { schema: { properties?: Record<string, StringSchema> } }> };
    };
    for (const [url, operations] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const parameter of operation.parameters ?? []) {
          const where = `${method} ${url} ${parameter.in} ${parameter.name}`;
          if (parameter.example === undefined) problems.push(`${where}: no example`);
          else if (invalid(parameter.schema, parameter.example)) problems.push(`${where}: ${invalid(parameter.schema, parameter.example)}`);
        }
        for (const [name, field] of Object.entries(operation.requestBody?.content['multipart/form-data']?.schema.properties ?? {})) {
          if (field.format === 'binary') continue;
          const where = `${method} ${url} field ${name}`;
          if (!field.examples?.length) problems.push(`${where}: no example`);
          for (const example of field.examples ?? []) if (invalid(field, example)) problems.push(`${where}: ${invalid(field, example)}`);
        }
      }
    }
    expect(problems).toEqual([]);
    const errorSchema = (document.components as { schemas: Record<string, { required: string[]; properties: Record<string, unknown>; examples?: Array<Record<string, unknown>> }> }).schemas.Error!;
    expect(errorSchema.examples?.length).toBeGreaterThan(0);
    for (const example of errorSchema.examples ?? []) {
      for (const field of errorSchema.required) expect(example).toHaveProperty(field);
      for (const field of Object.keys(example)) expect(Object.keys(errorSchema.properties)).toContain(field);
    }
  });

  it("gives every JSON body field an example the server's own schema accepts, and each parameter one its schema accepts", () => {
    type Operation = {
      operationId: string;
      parameters?: Array<{ name: string; in: string; example?: unknown }>;
      requestBody?: { content: Record<string, { schema: { properties?: Record<string, { examples?: unknown[] }> } }> };
    };
    const operations = new Map(
      Object.values(document.paths as Record<string, Record<string, Operation>>)
        .flatMap((p) => Object.values(p))
        .map((o) => [o.operationId, o]),
    );
    const member = (schema: unknown, name: string): z.ZodType | undefined => {
      if (!(schema instanceof z.ZodObject)) return undefined;
      const shape = schema.shape as Record<string, z.ZodType>;
      return shape[Object.keys(shape).find((key) => key.toLowerCase() === name.toLowerCase()) ?? ''];
    };
    const problems: string[] = [];
    let checked = 0;
    for (const [name, call] of Object.entries(calls) as Array<[string, { body?: unknown; headers?: unknown; params?: unknown; query?: unknown }]>) {
      const operation = operations.get(name);
      if (!operation) continue;
      for (const [field, property] of Object.entries(operation.requestBody?.content['application/json']?.schema.properties ?? {})) {
        if (!property.examples?.length) problems.push(`${name} body ${field}: no example`);
        for (const example of property.examples ?? []) {
          const parsed = member(call.body, field)?.safeParse(example);
          checked += 1;
          if (!parsed?.success) problems.push(`${name} body ${field}: ${JSON.stringify(example)} refused`);
        }
      }
      for (const parameter of operation.parameters ?? []) {
        const schema = member({ header: call.headers, path: call.params, query: call.query }[parameter.in], parameter.name);
        if (!schema) continue;
        checked += 1;
        if (!schema.safeParse(parameter.example).success) problems.push(`${name} ${parameter.in} ${parameter.name}: ${JSON.stringify(parameter.example)} refused`);
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it("answers of the integrator's usual calls carry an example their own response schema accepts", () => {
    type Operation = { operationId: string; responses?: Record<string, { content?: Record<string, { example?: unknown }> }> };
    const examples = new Map(
      Object.values(document.paths as Record<string, Record<string, Operation>>)
        .flatMap((p) => Object.values(p))
        .map((o) => [o.operationId, o.responses?.['200']?.content?.['application/json']?.example] as const)
        .filter(([, example]) => example !== undefined),
    );
    expect([...examples.keys()].sort()).toEqual(expect.arrayContaining(['health', 'otp', 'queryScore', 'videoToken', 'videoTokenCode']));
    for (const [name, example] of examples) {
      const call = (calls as Record<string, { response?: z.ZodType }>)[name];
      expect(call?.response?.safeParse(example).success, name).toBe(true);
    }
  });

  it('generates a TypeScript client that compiles against an integration and performs the ID upload', async () => {
    const ast = await openapiTS(document as never, {
      // Files are Blobs for the integrator, not strings.
      transform(schema) {
        if (schema.format === 'binary') return ts.factory.createTypeReferenceNode('Blob');
        return undefined;
      },
    });
    writeFileSync(path.join(scratch, 'api.ts'), astToString(ast));
    const clientFile = path.join(scratch, 'integration.ts');
    writeFileSync(clientFile, integration);

    const program = ts.createProgram([clientFile], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);

    const compiled = ts.transpileModule(integration, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const moduleFile = path.join(scratch, 'integration.mjs');
    writeFileSync(moduleFile, compiled);
    const { readFront } = (await import(pathToFileURL(moduleFile).href)) as { readFront: (base: string, h: ReturnType<typeof trxHeaders>, image: Blob) => Promise<{ status: number; name?: string }> };

    const fixtures = mkdtempSync(path.join(tmpdir(), 'openapi-client-'));
    try {
      await generateFixtureSet({ outDir: fixtures, seed: 21, count: 1, kinds: ['ine'], degradations: [], referenceDate: '2026-11-26' });
      const image = new Blob([readFileSync(path.join(fixtures, 'ine-000-front-clean.png'))], { type: 'image/png' });
      const truth = JSON.parse(readFileSync(path.join(fixtures, 'ine-000-front-clean.json'), 'utf8')) as { ocrFront?: { nombreCompleto?: string } };
      // The journey's order: the integrator records the consent before the first capture.
      const headers = trxHeaders();
      await acceptConsents(t.app, headers);
      const result = await readFront(baseUrl, headers, image);
      expect(result.status).toBe(200);
      // The generator's older card prints accents the reader may drop: compared letter for letter.
      expect(stripAccentsKeepEnye(result.name ?? '')).toBe(stripAccentsKeepEnye(truth.ocrFront?.nombreCompleto ?? ''));
    } finally {
      rmSync(fixtures, { recursive: true, force: true });
    }
  }, 120_000);
});
