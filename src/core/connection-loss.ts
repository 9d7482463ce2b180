/**
 * Whether an error means the database (or another dependency reached over the network) is out of reach,
 * as opposed to a fault of the request or of the code. Such a failure is temporary: the pool reconnects by
 * itself, so a client is told to retry (503 `unavailable`) rather than shown an internal error.
 */

// SQLSTATE classes and codes of a lost or refused connection: 08 connection exception, 57P01-57P03
// (terminated by an administrator, crash shutdown, cannot connect now), 53300 too many connections.
const LOST_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
// node-postgres reports a dropped socket with a plain Error and no code; these are its words.
const LOST_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  'timeout exceeded when trying to connect',
  // ALTER DATABASE ... ALLOW_CONNECTIONS false answers 55000, a class other errors share: match its text.
  'is not currently accepting connections',
];

/**
 * True when `error` is a lost or refused connection (SQLSTATE 08xxx, 57P01–57P03, 53300, a
 * network errno, or node-postgres' words for a dropped socket): the error handler answers 503 for it.
 *
 * @example
 * ```ts
 * import { isConnectionLoss } from './connection-loss';
 *
 * isConnectionLoss(Object.assign(new Error('terminating connection'), { code: '57P01' })); // true
 * isConnectionLoss(new Error('syntax error')); // false
 * ```
 */
export function isConnectionLoss(error: unknown): boolean {
  // Drizzle wraps the driver's error in DrizzleQueryError and pg-pool in another Error: follow `cause`.
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (LOST_CODES.has(code) || code.startsWith('08') || NETWORK_CODES.has(code))) return true;
    if (typeof message === 'string' && LOST_MESSAGES.some((m) => message.includes(m))) return true;
  }
  return false;
}
