/**
 * OpenTelemetry traces (docs/deploy.md, Operating): off unless the `OTEL_*` variables name an OTLP endpoint. On, a
 * tracer provider exports batches of spans over OTLP/HTTP, the active span follows the request through its awaits
 * (AsyncLocalStorage), and W3C `traceparent` is read from what comes in and written on what goes out. Off, every
 * helper here returns at its first test of `tracingOn`.
 */
import {
  type Attributes,
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface TracingSettings {
  readonly endpoint: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly serviceName: string;
}

export let tracingOn = false;
let tracer: Tracer | undefined;
let provider: BasicTracerProvider | undefined;

/** Starts exporting spans; once per process. Resolves `stop`, which sends what is left and shuts the exporter. */
export function startTracing(settings: TracingSettings, version: string): { stop(): Promise<void> } {
  if (!provider) {
    const exporter = new OTLPTraceExporter({ url: settings.endpoint, headers: { ...settings.headers } });
    provider = new BasicTracerProvider({
      resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': version }),
      spanProcessors: [new BatchSpanProcessor(exporter)],
    });
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(provider);
    tracer = provider.getTracer('munidata', version);
    tracingOn = true;
  }
  const running = provider;
  return { stop: () => running.shutdown() };
}

/** Sends the spans ended so far (tests; shutdown sends them too). */
export async function flushTraces(): Promise<void> {
  await provider?.forceFlush();
}

/** A server span for an incoming HTTP request, child of the caller's `traceparent` when it sent one. */
export function startServerSpan(name: string, headers: Record<string, unknown>, attributes: Attributes) {
  const parent = propagation.extract(ROOT_CONTEXT, headers);
  const span = (tracer as Tracer).startSpan(name, { kind: SpanKind.SERVER, attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/**
 * Runs `work` in a child span of the active one; off, it runs `work` alone. A failure marks the span an error,
 * with the error's class only (its message may quote what a caller sent).
 */
export function inSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>, kind = SpanKind.INTERNAL) {
  if (!tracingOn) return work();
  return (tracer as Tracer).startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** `inSpan` for a call to another service (a webhook receiver, the store, Redis). */
export function inClientSpan<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  return inSpan(name, attributes, work, SpanKind.CLIENT);
}

/** Marks `span` failed with the class of `error`. */
export function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
}

/**
 * Runs `work` as a child of a W3C `traceparent` given in a message (MCP's `params._meta.traceparent`) rather than
 * of the HTTP request carrying it: the client's trace goes on through the call. A value that is not one is ignored.
 */
export function underTraceparent<T>(traceparent: unknown, work: () => T): T {
  if (!tracingOn || typeof traceparent !== 'string') return work();
  const remote = propagation.extract(ROOT_CONTEXT, { traceparent });
  if (trace.getSpanContext(remote) === undefined) return work();
  return context.with(remote, work);
}

/** The headers that carry the active span to another service (`traceparent`, `tracestate`); none when off. */
export function traceHeaders(): Record<string, string> {
  const carrier: Record<string, string> = {};
  if (tracingOn) propagation.inject(context.active(), carrier);
  return carrier;
}

/** A child span of the active one, for work that ends in a callback; undefined when tracing is off. */
export function startChildSpan(name: string, attributes: Attributes, kind = SpanKind.CLIENT): Span | undefined {
  return tracingOn ? (tracer as Tracer).startSpan(name, { kind, attributes }) : undefined;
}
