// Load shedding: 503 with Retry-After while the event loop lags past its budget, instead of queueing requests.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './error-handler';

/** How often the delay is read, and the timer's resolution (subtracted: an idle loop measures it). */
const SAMPLE_MS = 1000;
const RESOLUTION_MS = 10;
/**
 * How many samples in a row must be above the threshold before requests are refused. A queue past capacity
 * lasts; a stall (a garbage collection, one large document parsed, a burst of CPU from another program)
 * ends, and its users would rather wait it out than be refused. One stall spans at most two samples: the
 * one it ends in, and the one before if the loop did not turn at all in it.
 */
export const SUSTAINED_SAMPLES = 3;
/**
 * Nothing is refused this long after the server is ready (by the app's clock, which tests move): the first
 * requests compile the code of every route they reach and fill the database pool, which lags the loop
 * without any queue behind it.
 */
export const WARM_UP_MS = 10_000;

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
 * Sheds load when the process cannot keep up, for `demoshare serve` behind a load balancer: off unless
 * MAX_EVENT_LOOP_DELAY is set, and refused on the embedded database (config.ts), whose queries run on this
 * event loop and would read as overload. Past its capacity a Node process does not see its queue: requests
 * wait in the kernel's accept backlog and socket buffers before any hook or timeout of the app runs
 * (bench/overload.ts: 1-7 ms inside Fastify, seconds outside), and every answer comes later than the one
 * before, minutes late in a long overload. The event loop's delay shows that queue from the inside: its
 * median over each second is a few ms while the process keeps up, and 150-250 ms at twice the load it can
 * serve. Once it stays above `maxDelayMs` for SUSTAINED_SAMPLES seconds in a row (and not in the first
 * WARM_UP_MS), every request is answered 503 `unavailable` with Retry-After at once, for a fraction of the
 * cost of serving it, so the backlog drains and the load balancer sends elsewhere; the first second back
 * under it ends that. /readyz answers 503 too (its route maps the error), which takes the process out of
 * the balancer's rotation; routes with `servedUnderLoad` (/healthz, /metrics) answer regardless.
 * Start and end are logged once each, with the delays measured; a refused request is not logged on its own
 * (the request log has its 503), since refusing must stay cheaper than serving.
 */
export function registerOverloadGuard(app: FastifyInstance, maxDelayMs: number, clock: Clock) {
  if (maxDelayMs <= 0) return;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  let timer: NodeJS.Timeout | undefined;
  let readyAt = 0;
  let sampledAt = 0;
  /** The delays of the samples in a row above the threshold, newest last. */
  let above: number[] = [];
  let shedding: { since: number; refused: number } | undefined;

  const sample = () => {
    const now = performance.now();
    // No turn of the loop recorded since the last sample: it stalled for the whole of it, and this
    // callback runs late by that stall's length. One stall, as long as it was (not an endless delay).
    const delayMs =
      histogram.count > 0 ? histogram.percentile(50) / 1e6 - RESOLUTION_MS : Math.max(0, now - sampledAt - SAMPLE_MS);
    histogram.reset();
    sampledAt = now;
    const rounded = Math.round(delayMs);
    if (delayMs <= maxDelayMs) {
      above = [];
      if (shedding) {
        app.log.warn(
          { delayMs: rounded, thresholdMs: maxDelayMs, shedForMs: Math.round(now - shedding.since), refused: shedding.refused },
          `load shedding stopped: the event loop's median delay fell to ${rounded} ms (MAX_EVENT_LOOP_DELAY ${maxDelayMs} ms) ` +
            `after ${formatSeconds(now - shedding.since)} s of shedding, ${shedding.refused} requests refused with 503`,
        );
        shedding = undefined;
      }
      return;
    }
    // Lag while warming up is not counted towards the samples in a row either.
    if (shedding || clock.now().getTime() - readyAt < WARM_UP_MS) return;
    above.push(rounded);
    if (above.length < SUSTAINED_SAMPLES) return;
    shedding = { since: now, refused: 0 };
    app.log.warn(
      { delaysMs: above, thresholdMs: maxDelayMs, aboveForMs: above.length * SAMPLE_MS },
      `load shedding started: the event loop's median delay was above MAX_EVENT_LOOP_DELAY (${maxDelayMs} ms) for ` +
        `${above.length} s in a row (${above.join(', ')} ms): every request but /healthz and /metrics gets 503 until it falls`,
    );
  };
  app.addHook('onReady', (done) => {
    readyAt = clock.now().getTime();
    sampledAt = performance.now();
    histogram.enable();
    timer = setInterval(sample, SAMPLE_MS).unref();
    app.log.info(
      `load shedding on: 503 while the event loop's median delay stays above ${maxDelayMs} ms for ${SUSTAINED_SAMPLES} s, from ${WARM_UP_MS / 1000} s after start`,
    );
    done();
  });
  app.addHook('onClose', (_app, done) => {
    clearInterval(timer);
    histogram.disable();
    done();
  });
  app.addHook('onRequest', (request, _reply, done) => {
    if (!shedding || request.routeOptions.config.servedUnderLoad) return done();
    shedding.refused++;
    done(new OverloadedError());
  });
}

const formatSeconds = (ms: number) => (ms / 1000).toFixed(1);
