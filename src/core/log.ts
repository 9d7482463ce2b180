// The one logger port of services that only report what they could not do (pino's and Fastify's loggers fit it).

/**
 * What a service needs of a logger to report a failure it survives (a lost access-log line, a batch to
 * retry). Declared once here, so every such dependency names the same port and a reader's "go to
 * implementation" lands on the app's logger rather than on each test's or script's stand-in.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * const log: WarningLog = pino();
 * log.warn({ err: new Error('disk full') }, 'viewer events could not be stored');
 * ```
 */
export interface WarningLog {
  warn(obj: object, msg: string): void;
}
