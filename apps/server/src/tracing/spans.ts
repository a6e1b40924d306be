import { type Attributes, type Context, context, propagation, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

/**
 * Spans of the service's own work (engine runs, jobs). Without tracing (the default) the API's tracer is a no-op, so
 * these cost a function call; with OTEL_EXPORTER_OTLP_ENDPOINT set they go to the collector (tracing/provider.ts).
 */
const tracer = () => trace.getTracer('kyc-server');

export interface SpanOptions {
  attributes?: Attributes;
  kind?: SpanKind;
  /** The parent; the active context (the request being served) when absent. */
  parent?: Context;
}

/** Runs `work` in a span that ends with it; a throw marks the span failed and goes on. */
export function inSpan<T>(name: string, options: SpanOptions, work: (span: Span) => Promise<T>): Promise<T> {
  const spanOptions = { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes ? { attributes: options.attributes } : {}) };
  return tracer().startActiveSpan(name, spanOptions, options.parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The W3C traceparent of the active span, to carry into a job row; undefined without tracing. */
export function activeTraceParent(): string | undefined {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/** The context a stored traceparent names (a job's run joins the request that enqueued it); the root without one. */
export function contextOfTraceParent(traceParent: string | null | undefined): Context {
  return traceParent ? propagation.extract(ROOT_CONTEXT, { traceparent: traceParent }) : ROOT_CONTEXT;
}

export { SpanKind, SpanStatusCode };
