import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './error-handler';

/** How often the delay is read, and the timer's resolution (subtracted: an idle loop measures it). */
const SAMPLE_MS = 1000;
const RESOLUTION_MS = 10;

export class OverloadedError extends AppError {
  constructor() {
    super('unavailable', 'The server is overloaded for the moment; retry in a few seconds', {
      headers: { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    });
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Served even while the process sheds load: liveness and metrics. */
    servedUnderLoad?: boolean;
  }
}

/**
 * Sheds load when the process cannot keep up. Past its capacity a Node process does not see its queue:
 * requests wait in the kernel's accept backlog and socket buffers before any hook or timeout of the app
 * runs (bench/overload.ts: 1-7 ms inside Fastify, seconds outside), and every answer comes later than the
 * one before, minutes late in a long overload. The event loop's delay shows that queue from the inside:
 * its median over each second is a few ms while the process keeps up, and 150-250 ms at twice the load it
 * can serve. Above `maxDelayMs` every request is answered 503 `unavailable` with Retry-After at once, for a
 * fraction of the cost of serving it, so the backlog drains and the requests that are served are served in
 * time. /readyz answers 503 too
 * (its route maps the error), which takes the process out of a load balancer's rotation; routes with
 * `servedUnderLoad` (/healthz, /metrics) answer regardless. Measuring starts once the app is ready, so
 * the work of starting up never counts as load.
 */
export function registerOverloadGuard(app: FastifyInstance, maxDelayMs: number) {
  if (maxDelayMs <= 0) return;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  let overloaded = false;
  let timer: NodeJS.Timeout | undefined;
  const sample = () => {
    // The median, not the mean: one long stall (a garbage collection, a table vacuumed by the embedded
    // database's upkeep) is not a queue, while past capacity nearly every turn of the loop is long. No
    // sample at all means the loop did not turn for the whole second.
    const delayMs = histogram.count > 0 ? histogram.percentile(50) / 1e6 - RESOLUTION_MS : Number.POSITIVE_INFINITY;
    overloaded = delayMs > maxDelayMs;
    histogram.reset();
  };
  app.addHook('onReady', (done) => {
    histogram.enable();
    timer = setInterval(sample, SAMPLE_MS).unref();
    done();
  });
  app.addHook('onClose', (_app, done) => {
    clearInterval(timer);
    histogram.disable();
    done();
  });
  app.addHook('onRequest', (request, _reply, done) => {
    if (!overloaded || request.routeOptions.config.servedUnderLoad) return done();
    done(new OverloadedError());
  });
}
