import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FlakyProxy {
  url: string;
  /** Every request passed on or dropped, in order: "PUT /v1/recordings/rec_…/steps/3 dropped". */
  log: string[];
  /** Drop (close the connection without an answer) the next request whose method and path match. */
  dropNext(method: string, path: RegExp): void;
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of a test server that can cut one request off, as a lost connection would: the
 * way to interrupt a client's upload at a chosen point without touching the server.
 */
export async function startFlakyProxy(target: string, port = 0): Promise<FlakyProxy> {
  const upstream = new URL(target);
  const log: string[] = [];
  const drops: { method: string; path: RegExp }[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const drop = drops.findIndex((d) => d.method === req.method && d.path.test(path));
    if (drop >= 0) {
      drops.splice(drop, 1);
      log.push(`${req.method} ${path} dropped`);
      req.resume();
      req.on('end', () => req.socket.destroy());
      return;
    }
    log.push(`${req.method} ${path}`);
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
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    log,
    dropNext: (method, path) => drops.push({ method, path }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
