import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyEngine } from '../src/engines/lazy-provider.js';
import { createMetrics } from '../src/metrics/registry.js';
import { startTestApp, type TestApp } from './support/app.js';
import { waitFor } from './results/support.js';
import { finishWithWebhook, receiver, type WebhookReceiver } from './support/webhook-receiver.js';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
}
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: Record<string, string | number | undefined>;
  status?: { code?: number };
  service?: string;
}

/** An OTLP/HTTP collector of our own: it keeps the JSON spans the exporter posts to /v1/traces. */
function startCollector(): Promise<{ server: Server; url: string; spans: ReceivedSpan[]; paths: string[] }> {
  const spans: ReceivedSpan[] = [];
  const paths: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      paths.push(`${req.method} ${req.url} ${req.headers['content-type']}`);
      const parsed = JSON.parse(body) as {
        resourceSpans: {
          resource: { attributes: { key: string; value: OtlpValue }[] };
          scopeSpans: { spans: (Omit<ReceivedSpan, 'attributes'> & { attributes?: { key: string; value: OtlpValue }[] })[] }[];
        }[];
      };
      for (const resource of parsed.resourceSpans) {
        const service = resource.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue;
        for (const scope of resource.scopeSpans) {
          for (const span of scope.spans) {
            const attributes = Object.fromEntries((span.attributes ?? []).map((a) => [a.key, a.value.stringValue ?? (a.value.intValue === undefined ? undefined : Number(a.value.intValue))]));
            spans.push({ ...span, attributes, ...(service ? { service } : {}) });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, paths })));
}

// Tracing is off by default (config.unit.test.ts); here a collector is configured, as an operator would.
describe('OpenTelemetry tracing (sqlite)', () => {
  let t: TestApp;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let hook: WebhookReceiver;
  beforeAll(async () => {
    collector = await startCollector();
    t = await startTestApp({ name: 'sqlite' }, { RATE_LIMITS: 'off', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_SERVICE_NAME: 'kyc-test' }, { jobs: { pollMs: 50 } });
    hook = await receiver(0);
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => hook?.server.close(resolve));
    await new Promise((resolve) => collector?.server.close(resolve));
  });

  it('sends a span per request with its route and request id, and the job it enqueued joins the same trace', async () => {
    const requestId = `req-${Date.now()}-traced`;
    const { headers, response } = await finishWithWebhook(t, hook.url, requestId);
    expect(response.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);

    const job = await waitFor(async () => collector.spans.find((s) => s.name === 'job webhook' && s.attributes['kyc.request_id'] === requestId));
    // The request's span may reach the collector after the job's (each is exported when it ends, in batches).
    const request = await waitFor(async () => collector.spans.find((s) => s.attributes['kyc.request_id'] === requestId && s.attributes['http.route'] === '/v1/update_cycle'));
    expect(request).toMatchObject({ name: 'POST /v1/update_cycle', service: 'kyc-test', attributes: { 'http.request.method': 'POST', 'http.response.status_code': 200 } });
    // A path's own text (a result link's token, a query) is never sent: the route pattern stands in for it.
    await t.app.inject({ method: 'GET', url: `/v1/params?token=${'x'.repeat(40)}&cp=06600` });
    await t.app.inject({ method: 'GET', url: `/no-such-page/${'y'.repeat(40)}` });
    // The worker's span is in the request's trace, under one of its spans (the handler that enqueued the job).
    expect(job.traceId).toBe(request.traceId);
    expect(collector.spans.filter((s) => s.traceId === request.traceId).map((s) => s.spanId)).toContain(job.parentSpanId);
    expect(job.attributes).toMatchObject({ 'kyc.job.kind': 'webhook', 'kyc.job.attempt': 1, 'kyc.job.outcome': 'done' });
    const stored = await t.db.selectFrom('jobs').select(['trace_parent']).where('uuid_trx', '=', headers.transaccion).executeTakeFirstOrThrow();
    expect(stored.trace_parent).toMatch(new RegExp(`^00-${request.traceId}-[0-9a-f]{16}-01$`));
    const params = await waitFor(async () => collector.spans.find((s) => s.name === 'GET /v1/params'));
    expect(params.attributes['url.path']).toBe('/v1/params');
    // The postal code as a value or in a query: bare, its digits can be part of a span's nanosecond timestamp.
    for (const secret of ['x'.repeat(40), '"06600"', '=06600', 'y'.repeat(40)]) expect(JSON.stringify(collector.spans)).not.toContain(secret);
    // Probes are not traced; what was sent went to the OTLP/HTTP path as JSON.
    expect(collector.spans.some((s) => s.attributes['http.route'] === '/healthz')).toBe(false);
    expect(collector.paths.every((p) => p.startsWith('POST /v1/traces application/json'))).toBe(true);
  });

  it('times each engine run, its wait for a slot, and marks a run refused as busy', async () => {
    const metrics = createMetrics(t.db);
    const tiny = { close: async () => undefined, run: (ms: number) => new Promise((r) => setTimeout(r, ms)) };
    const ocr = metrics.instrumentEngine(
      'ocr',
      lazyEngine(async () => tiny, 1, { queue: { length: 0, waitMs: 1_000 } }),
      1,
    );
    const held = ocr.withSlot((e) => e.run(200));
    expect(await ocr.withSlot((e) => e.run(1))).toBeUndefined();
    await held;
    const runs = await waitFor(async () => {
      const found = collector.spans.filter((s) => s.name === 'ocr engine');
      return found.length === 2 ? found : undefined;
    });
    const [ran, refused] = [runs.find((s) => s.attributes['kyc.engine.wait_ms'] !== undefined), runs.find((s) => s.attributes['kyc.engine.wait_ms'] === undefined)];
    expect(ran?.status?.code ?? 0).not.toBe(2);
    expect(refused?.status?.code).toBe(2);
  });
});
