import { FastifyOtelInstrumentation } from '@fastify/otel';
import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import type { FastifyPluginCallback } from 'fastify';
import type { Config } from '../config.js';

export interface Tracing {
  /** Registered on the app before any route: a server span per request (route, method, status, request id). */
  plugin: FastifyPluginCallback;
  /** Sends the spans still buffered and releases the process-wide tracer. */
  shutdown(): Promise<void>;
}

/** Probes and scrapes would fill a trace store with nothing to look at. */
const untracedPaths: readonly string[] = ['/healthz', '/readyz', '/metrics'];

/**
 * OpenTelemetry tracing, off by default: on when the configuration names an OTLP/HTTP collector. No import hook and
 * no auto-instrumentation of every module (docs/decisions.md, "OpenTelemetry tracing"): requests are traced by
 * Fastify's own instrumentation registered as a plugin, engine runs and jobs by spans of our own (spans.ts), and a
 * job's run joins the trace of the request that enqueued it through the traceparent kept in its row.
 */
export function startTracing(config: Config['tracing'], service: { role: Config['processRole']; version: string }): Tracing | undefined {
  if (!config.endpoint) return undefined;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName, [ATTR_SERVICE_VERSION]: service.version, 'kyc.process_role': service.role }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: config.endpoint }), { scheduledDelayMillis: 1000 })],
  });
  // The process-wide provider, the async-local context manager (a span started in a handler is the request's child)
  // and the W3C propagator.
  provider.register();
  const instrumentation = new FastifyOtelInstrumentation({
    ignorePaths: (route) => untracedPaths.includes(route.url),
    requestHook: (span, request) => {
      // The raw path can hold a result link's signed token or a query with personal data: the pattern replaces it.
      const route = request.routeOptions.url ?? 'unmatched';
      span.updateName(`${request.method} ${route}`);
      span.setAttributes({ 'url.path': route, 'kyc.request_id': request.id });
    },
    // Only the request and its handler: a span per hook of every plugin would outnumber the work.
    instrumentHooks: false,
  });
  instrumentation.setTracerProvider(provider);
  let closed: Promise<void> | undefined;
  const close = async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  };
  return { plugin: instrumentation.plugin(), shutdown: () => (closed ??= close()) };
}
