import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FlakyProxy {
  url: string;
  /** Every request passed on or failed, in order: "PUT /v1/recordings/rec_…/steps/3 failed". */
  log: string[];
  /** Where requests go; set it when the proxy had to start before the server (to give the server its address). */
  target: string;
  /**
   * Fail the next request whose method and path match, without passing it on: with a 503 and the
   * connection closed, as a restarting server or load balancer answers. (A connection merely cut off is
   * retried by the browser's network stack on its own for idempotent requests, so a client never sees it.)
   */
  failNext(method: string, path: RegExp): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of a test server that can fail one request, as a restarting server would: the
 * way to interrupt a client's upload at a chosen point without touching the server.
 */
export async function startFlakyProxy(target = 'http://127.0.0.1:9'): Promise<FlakyProxy> {
  const log: string[] = [];
  const drops: { method: string; path: RegExp }[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const drop = drops.findIndex((d) => d.method === req.method && d.path.test(path));
    if (drop >= 0) {
      drops.splice(drop, 1);
      log.push(`${req.method} ${path} failed`);
      req.resume();
      req.on('end', () => {
        res.writeHead(503, { 'content-type': 'application/json', connection: 'close' });
        res.end(JSON.stringify({ error: { code: 'unavailable', message: 'The service is restarting' } }));
      });
      return;
    }
    log.push(`${req.method} ${path}`);
    const upstream = new URL(proxy.target);
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } },
      (answer: IncomingMessage) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: FlakyProxy = {
    target,
    url: `http://127.0.0.1:${port}`,
    log,
    failNext: (method, path) => drops.push({ method, path }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
