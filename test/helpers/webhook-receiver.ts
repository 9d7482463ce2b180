import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw bytes, exactly as they came off the wire. */
  body: Buffer;
  at: number;
  /** When the whole answer was handed to the connection; unset while pending, or if the sender was gone. */
  answeredAt?: number;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the test kills the sender or the timeout fires). */
  hang?: boolean;
}

/** A real HTTP receiver on 127.0.0.1 that records every request and answers as the test says. */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private server: Server;
  private replyWith: (req: Received, index: number) => Reply = () => ({ status: 200, body: 'ok' });
  private waiters: Array<() => void> = [];
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const entry: Received = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
        const index = this.received.push(entry) - 1;
        for (const wake of this.waiters.splice(0)) wake();
        const reply = this.replyWith(entry, index);
        if (reply.hang) return;
        setTimeout(() => {
          if (res.destroyed) return;
          res.once('finish', () => {
            entry.answeredAt = Date.now();
          });
          res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain', ...(reply.headers ?? {}) });
          res.end(reply.body ?? '');
        }, reply.delayMs ?? 0);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Sets how the next requests are answered; `index` counts every request this receiver has had. */
  respond(fn: (req: Received, index: number) => Reply): void {
    this.replyWith = fn;
  }

  reset(): void {
    this.received.length = 0;
    this.respond(() => ({ status: 200, body: 'ok' }));
  }

  /** Resolves once `predicate` holds for the requests so far; rejects after `timeoutMs`. */
  async waitFor(predicate: (received: Received[]) => boolean, timeoutMs = 20_000, what = 'requests'): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.received)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}; received ${this.received.length}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.received;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Polls `check` until it returns a value (not undefined/false) or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
