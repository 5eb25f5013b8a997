/**
 * Redis's hook: every command any client of the process sends (the counters, the revocations, the pipeline's
 * leases) passes through ioredis's `sendCommand`, wrapped here once, when metrics or tracing is on, to time it, count
 * its failures and, when tracing, make it a client span of the request that sent it. Off, ioredis is untouched.
 */
import { Redis } from 'ioredis';
import { bounded, REDIS_COMMANDS } from './labels.js';
import { metrics, metricsOn } from './metrics.js';
import { failed, startChildSpan, tracingOn } from './tracing.js';

let wrapped = false;

export function observeRedisCommands(): void {
  if (wrapped || (!metricsOn && !tracingOn)) return;
  wrapped = true;
  const send = Redis.prototype.sendCommand;
  Redis.prototype.sendCommand = function observedSend(this: Redis, ...args: Parameters<typeof send>) {
    const [command] = args;
    const name = bounded(command.name.toLowerCase(), REDIS_COMMANDS);
    const span = startChildSpan(`redis ${name}`, { 'db.system': 'redis', 'db.operation.name': name });
    const started = performance.now();
    const settled = (error?: unknown) => {
      if (metricsOn) {
        metrics.redisDuration.observe({ command: name }, (performance.now() - started) / 1000);
        if (error !== undefined) metrics.redisErrors.inc({ command: name });
      }
      if (span && error !== undefined) failed(span, error);
      span?.end();
    };
    command.promise.then(
      () => settled(),
      (error: unknown) => settled(error ?? new Error('failed')),
    );
    return send.apply(this, args);
  };
}
