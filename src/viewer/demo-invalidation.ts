import type { ZodApp } from '../core/http/types';
import type { ViewerCache } from './viewer-cache';

const DEMO_WRITE = /^\/v1\/demos\/(demo_[0-9a-z]{26})(?:[/?]|$)/;

/**
 * Drops the viewer cache of a demo after any successful write to it through the API (title, status,
 * configuration, steps, hotspots, images, delete), here and in the other processes. Hooked on the way out,
 * after the handler's transaction has committed, so that no viewer reloads the state from before it.
 */
export function registerDemoInvalidation(app: ZodApp, cache: Pick<ViewerCache, 'invalidate'>) {
  // A callback rather than an async hook: reads, nearly all traffic, pass without a promise.
  app.addHook('onSend', (request, reply, payload, done) => {
    const match =
      request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400 ? null : DEMO_WRITE.exec(request.url);
    if (!match) return done(null, payload);
    cache.invalidate(`demo:${match[1]}`).then(
      () => done(null, payload),
      (error: Error) => done(error),
    );
  });
}
