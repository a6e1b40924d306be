import { randomUUID } from 'node:crypto';
import { credentials, type RouteName } from '@kyc/contracts';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey } from '../src/crypto/apikeys.js';
import { insertSecretKey } from '../src/secret-keys/store.js';
import { insertGrantor } from '../src/store/grantors.js';
import { engines, startTestApp, type TestApp } from './support/app.js';
import { demoId, lifecycleEvent, startedTransaction } from './support/fixtures.js';
import { invalidUtf8, isConstrainedString, oversizedString, polyglots, sampleOf, seededRng, wrongTypeFor, type Rng, type Schema } from './support/fuzz-inputs.js';
import { acceptConsents, journeyConsents, usableFront } from './support/journey.js';
import { snapshotDiff, stateSnapshot } from './support/state-snapshot.js';
import { imageSample, multipartBody, pdfSample, type FormPart } from './uploads/samples.js';

/**
 * Issue #15 item 6: every operation of the app's own /openapi.json, sent seeded malformed inputs (types, sizes,
 * encodings, missing and foreign credentials, polyglot uploads). Each answer must be < 500, come within the bound,
 * be a JSON error on API paths, and change nothing (database rows and files under DATA_DIR).
 * Another seed: FUZZ_SEED=1234 npx vitest run apps/server/test/fuzz.api.test.ts
 */
const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);
const answerBoundMs = 10_000;
const uploadLimit = 1024 * 1024;

interface Operation {
  method: string;
  path: string;
  operationId: RouteName;
  headerParams: string[];
  pathParams: string[];
  security: string[][];
  json?: Schema;
  multipart?: Schema;
}

interface Journey {
  apikey: string;
  transaccion: string;
  cliente: string;
  'x-transaction-token': string;
}

interface Context {
  victim: Journey;
  /** A second journey of the same grantor: its token must not open the victim's transaction. */
  sibling: Journey;
  /** A journey of another grantor, with that grantor's keys. */
  other: Journey;
  otherSecret: string;
  png: Buffer;
  jpeg: Buffer;
  pdf: Buffer;
}

interface Variant {
  name: string;
  request: InjectOptions;
}

type OpenApi = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId: RouteName;
        parameters?: Array<{ in: string; name: string }>;
        security?: Array<Record<string, string[]>>;
        requestBody?: { content?: Record<string, { schema?: Schema }> };
      }
    >
  >;
};

function operationsOf(doc: OpenApi): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      operationId: op.operationId,
      headerParams: (op.parameters ?? []).filter((p) => p.in === 'header').map((p) => p.name.toLowerCase()),
      pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      security: (op.security ?? []).map((alternative) => Object.keys(alternative)),
      json: op.requestBody?.content?.['application/json']?.schema,
      multipart: op.requestBody?.content?.['multipart/form-data']?.schema,
    })),
  );
}

const usesFlowHeaders = (op: Operation) => op.headerParams.includes('transaccion') || op.security.some((s) => s.includes('publishableKey'));
const kindOf = (op: Operation) => credentials[op.operationId];

/** The ids a request names: those of its headers when they are UUIDs (a foreign transaction stays foreign), else the victim's. */
function idsOf(ctx: Context, headers: Record<string, string> = {}) {
  const uuid = (value: string | undefined, fallback: string) => (value && /^[0-9a-f-]{36}$/i.test(value) ? value : fallback);
  return { transaccion: uuid(headers.transaccion, ctx.victim.transaccion), cliente: uuid(headers.cliente, ctx.victim.cliente), grantorId: demoId, apikey: ctx.victim.apikey };
}

function urlOf(op: Operation, ctx: Context, overrides: Record<string, string> = {}, headers: Record<string, string> = {}): string {
  const { transaccion, cliente } = idsOf(ctx, headers);
  const ids: Record<string, string> = { uuidTrx: transaccion, uuidUser: cliente, idOtorgante: demoId, id: randomUUID(), token: 'x'.repeat(40) };
  const path = op.path.replace(/\{(\w+)\}/g, (_, key: string) => overrides[key] ?? encodeURIComponent(ids[key] ?? 'x'));
  return path + (op.operationId === 'queryScore' ? '?isDesktop=true' : '');
}

const headersOfVictim = (ctx: Context) => ({ transaccion: ctx.victim.transaccion, cliente: ctx.victim.cliente });

function headersOf(op: Operation, ctx: Context): Record<string, string> {
  const kind = kindOf(op);
  const headers: Record<string, string> = {};
  if (usesFlowHeaders(op)) Object.assign(headers, { apikey: ctx.victim.apikey, transaccion: ctx.victim.transaccion, cliente: ctx.victim.cliente });
  if (kind === 'flowRead') headers['x-transaction-token'] = ctx.victim['x-transaction-token'];
  if (kind === 'server') headers.authorization = 'Bearer demo-secret';
  if (kind === 'resultLink') headers['x-consumer-custom-id'] = 'x'.repeat(40);
  // The launcher's calls come from a partner page (its Origin is checked before anything else).
  if (op.operationId.startsWith('launcher')) headers.origin = 'https://partner.example';
  return headers;
}

function textFieldValue(name: string, ids: { cliente: string }): string {
  if (/^uuid/i.test(name)) return ids.cliente;
  if (name === 'side') return 'front';
  if (name === 'folder') return `${demoId}/${ids.cliente}/domicilio`;
  if (name === 'created' || name === 'expire') return new Date().toISOString();
  return 'x';
}

function fileFor(field: string, schema: Schema, ctx: Context) {
  const video = /video\//.test((schema as { description?: string }).description ?? '') && !/image\//.test((schema as { description?: string }).description ?? '');
  if (video) return { name: field, filename: 'video.webm', contentType: 'video/webm', data: polyglots(ctx.pdf)['WebM magic + garbage']!.data };
  return { name: field, filename: 'foto.png', contentType: 'image/png', data: ctx.png };
}

/** The form of a well-formed upload (required fields and files), as the flow sends it. */
function formParts(schema: Schema, ctx: Context, headers: Record<string, string> = headersOfVictim(ctx)): FormPart[] {
  const ids = idsOf(ctx, headers);
  return Object.entries(schema.properties ?? {})
    .filter(([name]) => schema.required?.includes(name))
    .map(([name, child]): FormPart => (child.format === 'binary' ? fileFor(name, child, ctx) : { name, value: textFieldValue(name, ids) }));
}

function multipart(op: Operation, ctx: Context, parts: FormPart[], headers = headersOf(op, ctx)): InjectOptions {
  const { payload, contentType } = multipartBody(parts);
  return { method: op.method as InjectOptions['method'], url: urlOf(op, ctx, {}, headers), headers: { ...headers, 'content-type': contentType }, payload };
}

function json(op: Operation, ctx: Context, body: string | Buffer, headers = headersOf(op, ctx), contentType = 'application/json'): InjectOptions {
  return { method: op.method as InjectOptions['method'], url: urlOf(op, ctx, {}, headers), headers: { ...headers, 'content-type': contentType }, payload: body };
}

/** The well-formed request each variant below breaks in one place (its ids those of its headers). */
function baseRequest(op: Operation, ctx: Context, headers = headersOf(op, ctx)): InjectOptions {
  if (op.multipart) return multipart(op, ctx, formParts(op.multipart, ctx, headers), headers);
  if (op.json) return json(op, ctx, JSON.stringify(sampleOf(op.json, idsOf(ctx, headers))), headers);
  return { method: op.method as InjectOptions['method'], url: urlOf(op, ctx, {}, headers), headers };
}

function credentialVariants(op: Operation, ctx: Context): Variant[] {
  const kind = kindOf(op);
  const base = headersOf(op, ctx);
  const variants: Array<[string, Record<string, string>]> = [];
  const without = (...names: string[]) => Object.fromEntries(Object.entries(base).filter(([key]) => !names.includes(key)));
  if (op.security.some((s) => s.includes('publishableKey'))) {
    variants.push(
      ['no apikey', without('apikey')],
      ['unknown apikey', { ...base, apikey: generateApiKey() }],
      ["another grantor's apikey on the victim's transaction", { ...base, apikey: ctx.other.apikey }],
      ['apikey with SQL and Latin-1', { ...base, apikey: "demo'; DROP TABLE transactions; -- ñ" }],
    );
  }
  if (op.headerParams.includes('transaccion')) {
    variants.push(
      [
        "the victim's apikey on another grantor's transaction",
        { ...base, transaccion: ctx.other.transaccion, cliente: ctx.other.cliente, ...(base['x-transaction-token'] ? { 'x-transaction-token': ctx.other['x-transaction-token'] } : {}) },
      ],
      ['no transaccion header', without('transaccion')],
      ['transaccion not a UUID', { ...base, transaccion: "1' OR '1'='1" }],
      ['cliente of 8 KB', { ...base, cliente: 'c'.repeat(8192) }],
    );
  }
  if (kind === 'flowRead') {
    variants.push(
      ['no transaction token', without('x-transaction-token')],
      ['garbage transaction token', { ...base, 'x-transaction-token': 'eyJhbGciOiJub25lIn0.eyJ0cngiOiJ4In0.' }],
      ["the same grantor's other transaction's token", { ...base, 'x-transaction-token': ctx.sibling['x-transaction-token'] }],
      ['unknown Bearer secret', { ...without('x-transaction-token'), authorization: `Bearer sk_live_${'0'.repeat(32)}` }],
      ["another grantor's Bearer secret", { ...without('x-transaction-token'), authorization: `Bearer ${ctx.otherSecret}` }],
      ['Basic authorization', { ...without('x-transaction-token'), authorization: 'Basic ZGVtbzpkZW1vLXNlY3JldA==' }],
    );
  }
  if (kind === 'server') {
    variants.push(
      ['no authorization', without('authorization')],
      ['the publishable key as Bearer', { ...base, authorization: `Bearer ${ctx.victim.apikey}` }],
      ['unknown Bearer secret', { ...base, authorization: `Bearer sk_live_${'f'.repeat(32)}` }],
      ['empty Bearer', { ...base, authorization: 'Bearer ' }],
      ['Bearer of 8 KB', { ...base, authorization: `Bearer ${'k'.repeat(8192)}` }],
    );
    if (op.pathParams.includes('uuidTrx')) variants.push(["another grantor's Bearer secret on the victim's transaction", { ...base, authorization: `Bearer ${ctx.otherSecret}` }]);
  }
  if (kind === 'resultLink') {
    variants.push(
      ['no X-Consumer-Custom-ID', without('x-consumer-custom-id')],
      ['unsigned (alg none) link token', { ...base, 'x-consumer-custom-id': `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ trx: ctx.victim.transaccion })).toString('base64url')}.` }],
      ['link token of 8 KB', { ...base, 'x-consumer-custom-id': 'l'.repeat(8192) }],
    );
  }
  return variants.map(([name, headers]) => ({ name, request: baseRequest(op, ctx, headers) }));
}

function pathVariants(op: Operation, ctx: Context, rng: Rng): Variant[] {
  return op.pathParams.flatMap((param) => {
    const variants: Variant[] = [
      { name: `${param} not a UUID`, request: { ...baseRequest(op, ctx), url: urlOf(op, ctx, { [param]: encodeURIComponent(rng.string(12)) }) } },
      { name: `${param} of 4 KB`, request: { ...baseRequest(op, ctx), url: urlOf(op, ctx, { [param]: 'a'.repeat(4096) }) } },
      { name: `${param} percent-encoded garbage`, request: { ...baseRequest(op, ctx), url: urlOf(op, ctx, { [param]: rng.pick(['%ff%fe', '..%2f..%2fetc%2fpasswd', '%c0%af', '%E2%80%AE']) }) } },
      { name: `${param} with a NUL character`, request: { ...baseRequest(op, ctx), url: urlOf(op, ctx, { [param]: `${rng.pick(['', 'a', demoId])}%00` }) } },
    ];
    if (param === 'uuidTrx')
      variants.push({ name: "another grantor's transaction in the path", request: { ...baseRequest(op, ctx), url: urlOf(op, ctx, { uuidTrx: ctx.other.transaccion, uuidUser: ctx.other.cliente }) } });
    return variants;
  });
}

function jsonVariants(op: Operation, ctx: Context, rng: Rng): Variant[] {
  const schema = op.json;
  const sample = (schema ? sampleOf(schema, idsOf(ctx)) : {}) as Record<string, unknown>;
  const properties = Object.entries(schema?.properties ?? {});
  const constrained = properties.filter(([, child]) => isConstrainedString(child));
  const strict = constrained.filter(([, child]) => child.enum || child.pattern || child.format);
  if (!schema && op.method === 'GET') return [];
  const variants: Variant[] = [
    { name: 'truncated JSON', request: json(op, ctx, JSON.stringify(sample).slice(0, Math.max(1, rng.int(JSON.stringify(sample).length)))) },
    { name: 'empty body declared as JSON', request: json(op, ctx, '') },
  ];
  if (!schema) return variants;
  for (const [name, child] of [rng.pick(properties), rng.pick(properties)].filter(Boolean) as Array<[string, Schema]>) {
    const wrong = wrongTypeFor(child, rng);
    variants.push({ name: `${name} as ${JSON.stringify(wrong)}`, request: json(op, ctx, JSON.stringify({ ...sample, [name]: wrong })) });
  }
  const required = schema.required ?? [];
  if (required.length) {
    const missing = rng.pick(required);
    variants.push({ name: `no ${missing}`, request: json(op, ctx, JSON.stringify({ ...sample, [missing]: undefined })) });
  }
  if (constrained.length) {
    const [name, child] = rng.pick(constrained);
    variants.push(
      { name: `${name} of 300,000 characters`, request: json(op, ctx, JSON.stringify({ ...sample, [name]: oversizedString(child, rng) })) },
      {
        name: `extra fields and an oversized ${name}`,
        request: json(op, ctx, JSON.stringify({ ...sample, zz_extra: { admin: true, grantorId: ctx.other.transaccion }, [name]: `${rng.string(8)}${'x'.repeat((child.maxLength ?? 64) + 1)}` })),
      },
    );
  }
  if (strict.length) {
    const [name] = rng.pick(strict);
    const [before, after] = JSON.stringify({ ...sample, [name]: '@@BYTES@@' }).split('@@BYTES@@') as [string, string];
    variants.push({ name: `invalid UTF-8 in ${name}`, request: json(op, ctx, Buffer.concat([Buffer.from(before), invalidUtf8, Buffer.from(after)])) });
  }
  const strings = properties.filter(([, child]) => (Array.isArray(child.type) ? child.type[0] : child.type) === 'string');
  if (strings.length) {
    const [name] = rng.pick(strings);
    variants.push({ name: `NUL character in ${name}`, request: json(op, ctx, JSON.stringify({ ...sample, [name]: `${String(sample[name] ?? '')}\u0000${rng.string(4)}` })) });
  }
  const deepField = properties.length ? rng.pick(properties)[0] : 'deep';
  const notAnObject = rng.pick(['[]', '"texto"', '42', 'null', 'true', `[${JSON.stringify(sample)}]`]);
  variants.push(
    { name: `body ${notAnObject.slice(0, 20)}`, request: json(op, ctx, notAnObject) },
    { name: 'prototype pollution keys', request: json(op, ctx, `{"__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}},${JSON.stringify(sample).slice(1)}`) },
    {
      name: `${deepField} nested 20,000 levels deep`,
      request: json(op, ctx, JSON.stringify({ ...sample, [deepField]: '@@DEEP@@' }).replace('"@@DEEP@@"', `${'['.repeat(20_000)}${']'.repeat(20_000)}`)),
    },
    { name: 'body over the JSON limit', request: json(op, ctx, JSON.stringify({ ...sample, padding: 'p'.repeat(1_200_000) })) },
    { name: 'JSON sent as text/plain', request: json(op, ctx, 'uuid=1&turn=x', headersOf(op, ctx), 'text/plain; charset=utf-8') },
    { name: 'form-urlencoded body', request: json(op, ctx, 'uuid=1&turn=x', headersOf(op, ctx), 'application/x-www-form-urlencoded') },
    { name: 'XML body', request: json(op, ctx, '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', headersOf(op, ctx), 'application/xml') },
  );
  return variants;
}

function uploadVariants(op: Operation, ctx: Context, rng: Rng): Variant[] {
  const schema = op.multipart as Schema;
  const parts = formParts(schema, ctx);
  const files = parts.filter((part) => 'filename' in part);
  const target = rng.pick(files);
  const replace = (replacement: FormPart) => parts.map((part) => (part.name === target.name ? replacement : part));
  const variants: Variant[] = Object.entries(polyglots(ctx.pdf)).map(([name, file]) => ({
    name: `${target.name}: ${name}`,
    request: multipart(op, ctx, replace({ name: target.name, ...file })),
  }));
  const whole = multipart(op, ctx, parts);
  const body = whole.payload as Buffer;
  const textFields = parts.filter((part) => 'value' in part);
  variants.push(
    { name: 'truncated multipart (no closing boundary)', request: { ...whole, payload: body.subarray(0, Math.floor(body.length * (0.3 + rng.next() * 0.6))) } },
    { name: 'multipart without a boundary', request: { ...whole, headers: { ...whole.headers, 'content-type': 'multipart/form-data' } } },
    {
      name: `no ${target.name} part`,
      request: multipart(
        op,
        ctx,
        parts.filter((part) => part !== target),
      ),
    },
    { name: `${target.name} sent as a text field`, request: multipart(op, ctx, replace({ name: target.name, value: 'no soy un archivo' })) },
    { name: `${target.name} empty`, request: multipart(op, ctx, replace({ ...target, data: Buffer.alloc(0) } as FormPart)) },
    { name: `${target.name} over the upload limit`, request: multipart(op, ctx, replace({ ...target, data: Buffer.concat([ctx.jpeg, Buffer.alloc(uploadLimit + 1024, 0x41)]) } as FormPart)) },
    { name: `${target.name} twice`, request: multipart(op, ctx, [...parts, target]) },
    { name: 'an unknown field', request: multipart(op, ctx, [...parts, { name: 'zz_extra', value: 'x' }]) },
    { name: 'upload sent as JSON', request: json(op, ctx, JSON.stringify({ [target.name]: ctx.png.toString('base64') })) },
  );
  if (textFields.length) {
    const field = rng.pick(textFields);
    variants.push({
      name: `${field.name} of 20 KB`,
      request: multipart(
        op,
        ctx,
        parts.map((part) => (part === field ? { name: field.name, value: rng.string(20_480) } : part)),
      ),
    });
    const nulField = rng.pick(textFields) as { name: string; value: string };
    variants.push({
      name: `NUL character in ${nulField.name}`,
      request: multipart(
        op,
        ctx,
        parts.map((part) => (part === nulField ? { name: nulField.name, value: `${nulField.value}\u0000` } : part)),
      ),
    });
  }
  return variants;
}

function variantsOf(op: Operation, ctx: Context): Variant[] {
  const rng = seededRng(seed, op.operationId);
  const variants = [...credentialVariants(op, ctx), ...pathVariants(op, ctx, rng), ...(op.multipart ? uploadVariants(op, ctx, rng) : jsonVariants(op, ctx, rng))];
  const otherMethod = rng.pick(['PUT', 'PATCH', 'TRACE', 'DELETE'].filter((method) => method !== op.method));
  variants.push({ name: `method ${otherMethod}`, request: { ...baseRequest(op, ctx), method: otherMethod as InjectOptions['method'] } });
  if (op.operationId === 'queryScore') {
    variants.push({ name: 'isDesktop not a boolean, generate twice', request: { ...baseRequest(op, ctx), url: `${urlOf(op, ctx).split('?')[0]}?isDesktop=quiza&generate=1&generate=2` } });
  }
  if (op.operationId === 'grantorParams' || op.operationId === 'publicGrantorParams') {
    variants.push(
      { name: 'idOtorgante query of 4 KB', request: { ...baseRequest(op, ctx), url: `${urlOf(op, ctx)}?idOtorgante=${'o'.repeat(4096)}` } },
      { name: 'idOtorgante query with a NUL character', request: { ...baseRequest(op, ctx), url: `${urlOf(op, ctx)}?idOtorgante=${demoId}%00` } },
    );
  }
  return variants;
}

async function withinBound<T>(work: PromiseLike<T>): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), answerBoundMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const isApiPath = (url: string) => /^\/(v1|v2|record)\//.test(url);

describe.each(engines)('fuzz: every operation of /openapi.json with malformed input ($name)', (engine) => {
  let t: TestApp;
  let ctx: Context;
  let operations: Operation[];

  beforeAll(async () => {
    console.log(`fuzz seed ${seed} (${engine.name}); reproduce with FUZZ_SEED=${seed}`);
    // The abuse limits would answer 429 before the handlers this suite means to reach (they have their own tests).
    // An API process only: a job worker renews leases and reschedules the retention sweep on its own clock, which
    // the before/after snapshots of each request would take for a change made by the request.
    t = await startTestApp(engine, { RATE_LIMITS: 'off', UPLOAD_LIMIT: String(uploadLimit), PROCESS_ROLE: 'api' });
    const otherKey = generateApiKey();
    const otherGrantor = randomUUID();
    const otherSecret = `sk_live_${randomUUID().replaceAll('-', '')}`;
    await insertGrantor(t, { id: otherGrantor, name: 'Crédito Norte', apiKey: otherKey });
    await insertSecretKey(t.db, { grantorId: otherGrantor, key: otherSecret, label: 'other' });
    const victim = await startedTransaction(t.app);
    const sibling = await startedTransaction(t.app);
    const other = await startedTransaction(t.app, otherKey);
    for (const journey of [victim, other]) {
      const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: journey, payload: lifecycleEvent(journey) });
      expect(res.statusCode, res.body).toBe(200);
    }
    await acceptConsents(t.app, victim, journeyConsents);
    // A read ID front, so the later captures (address proof, selfie, video) reach their upload handling.
    await usableFront(t, victim);
    ctx = { victim, sibling, other, otherSecret, png: await imageSample('png', 320, 240), jpeg: await imageSample('jpeg', 320, 240), pdf: pdfSample() };
    operations = operationsOf((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as OpenApi);
  }, 60_000);
  afterAll(async () => t?.close());

  it('sees in its snapshot the change a well-formed request makes (the no-change check can fail)', async () => {
    const before = await stateSnapshot(t.db, t.dataDir);
    for (const table of ['transactions', 'lifecycle_events', 'audit_events', 'evidence', 'transaction_attempts', 'result_emails', 'sms_codes']) {
      expect(Object.keys(before), table).toContain(`table ${table}`);
    }
    const journey = await startedTransaction(t.app);
    const res = await t.app.inject({ method: 'POST', url: '/v1/update_cycle', headers: journey, payload: lifecycleEvent(journey) });
    expect(res.statusCode, res.body).toBe(200);
    const changed = snapshotDiff(before, await stateSnapshot(t.db, t.dataDir)).map((line) => line.split(':')[0]);
    expect(changed).toEqual(expect.arrayContaining(['table transactions', 'table lifecycle_events']));
  });

  it('answers every malformed request below 500, within the bound, as a JSON error, and changes nothing', async () => {
    expect(operations.length).toBeGreaterThan(30);
    const failures: string[] = [];
    const statuses: Record<number, number> = {};
    let sent = 0;
    const started = Date.now();
    let before = await stateSnapshot(t.db, t.dataDir);
    for (const op of operations) {
      for (const variant of variantsOf(op, ctx)) {
        const label = `${op.operationId} [${variant.name}] (seed ${seed})`;
        const at = Date.now();
        let res;
        try {
          res = await withinBound(t.app.inject(variant.request));
        } catch (error) {
          failures.push(`${label}: the request failed: ${(error as Error).message}`);
          continue;
        }
        sent += 1;
        if (res === 'timeout') {
          failures.push(`${label}: no answer within ${answerBoundMs} ms`);
          continue;
        }
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        if (res.statusCode >= 500) failures.push(`${label}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        if (res.statusCode >= 400 && isApiPath(String(variant.request.url))) {
          let message: unknown;
          try {
            message = (JSON.parse(res.body) as { message?: unknown }).message;
          } catch {
            message = undefined;
          }
          if (!String(res.headers['content-type']).includes('application/json') || typeof message !== 'string') {
            failures.push(`${label}: ${res.statusCode} is not a JSON error (${res.headers['content-type']}): ${res.body.slice(0, 120)}`);
          }
        }
        const after = await stateSnapshot(t.db, t.dataDir);
        const changed = snapshotDiff(before, after);
        if (changed.length) failures.push(`${label}: answered ${res.statusCode} and changed ${changed.join('; ')}`);
        before = after;
        if (process.env.FUZZ_LOG) console.log(`${res.statusCode} ${Date.now() - at}ms ${op.operationId} [${variant.name}] ${res.body.slice(0, 100)}`);
      }
    }
    console.log(`fuzz (${engine.name}, seed ${seed}): ${sent} requests over ${operations.length} operations in ${Date.now() - started} ms; statuses ${JSON.stringify(statuses)}`);
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThan(300);
  }, 240_000);
});
