/**
 * The HTTP layer's hooks: `tracedHandler` wraps the Node server's handler (a span per request, the caller's
 * `traceparent` its parent, active through every await of the request), and `recordRequest` runs once per answered
 * request (from a hook beside the request log, which knows its channel, operation and status) to count it and name
 * its span. With metrics and tracing off, the handler is Node's own and the hook is not added.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { context, type Span, SpanStatusCode } from '@opentelemetry/api';
import { bounded, CHANNELS, NO_OPERATION, STATUS_CLASSES } from './labels.js';
import { metrics, metricsOn } from './metrics.js';
import { startServerSpan, tracingOn } from './tracing.js';

/** What the request log knows of an answered request. */
export interface AnsweredRequest {
  readonly channel: string;
  /** The operation run; undefined when none was (a page, a tool list, a refusal before the call). */
  readonly operation?: string;
  readonly accountId?: number;
  /** The route's pattern (`/v1/municipalities/:code`), never the path itself. */
  readonly route?: string;
  readonly status: number;
  readonly seconds: number;
}

const SPAN = Symbol('munidata.requestSpan');
type SpannedMessage = IncomingMessage & { [SPAN]?: Span };

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** `handler`, each request run inside a server span when tracing is on; `handler` itself when it is off. */
export function tracedHandler(handler: Handler): Handler {
  if (!tracingOn) return handler;
  return (request, response) => {
    const { span, context: active } = startServerSpan(`HTTP ${request.method}`, request.headers, {
      'http.request.method': request.method,
    });
    (request as SpannedMessage)[SPAN] = span;
    // A request refused before any route (no log line) still ends its span.
    response.once('close', () => span.end());
    context.with(active, () => handler(request, response));
  };
}

/** Whether metrics or tracing is on: the request hook is added only then. */
export function observing(): boolean {
  return metricsOn || tracingOn;
}

export function recordRequest(request: IncomingMessage, answered: AnsweredRequest): void {
  const channel = bounded(answered.channel, CHANNELS);
  const operation = answered.operation ?? NO_OPERATION;
  if (metricsOn) {
    const statusClass = bounded(`${Math.floor(answered.status / 100)}xx`, STATUS_CLASSES);
    metrics.requests.inc({ channel, operation, status_class: statusClass });
    metrics.requestDuration.observe({ channel, operation }, answered.seconds);
  }
  const span = (request as SpannedMessage)[SPAN];
  if (span === undefined) return;
  span.updateName(answered.route ? `${request.method} ${answered.route}` : `HTTP ${request.method}`);
  span.setAttributes({
    'munidata.channel': channel,
    'munidata.operation': operation,
    'http.response.status_code': answered.status,
    ...(answered.route !== undefined && { 'http.route': answered.route }),
    ...(answered.accountId !== undefined && { 'munidata.account_id': answered.accountId }),
  });
  if (answered.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
}
