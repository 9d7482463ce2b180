import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize } from 'node:path';

const SITE_DIR = join(import.meta.dirname, '..', 'fixtures', 'site');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.svg': 'image/svg+xml',
};

/** A server that must never be reached: it counts every connection and request it gets. */
export interface ForbiddenServer {
  origin: string;
  port: number;
  connections: number;
  requests: string[];
  close(): Promise<void>;
}

/** The test site (test/fixtures/site) on 127.0.0.1, with `{{FORBIDDEN}}` in pages pointing at `forbidden`. */
export interface TestSite {
  origin: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startForbiddenServer(host = '127.0.0.2'): Promise<ForbiddenServer> {
  const state = { connections: 0, requests: [] as string[] };
  const server = createServer((req, res) => {
    state.requests.push(req.url ?? '');
    res.end('reached');
  });
  server.on('connection', () => {
    state.connections++;
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    state.requests.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  const port = await listen(server, host);
  return {
    origin: `http://${host}:${port}`,
    port,
    get connections() {
      return state.connections;
    },
    get requests() {
      return state.requests;
    },
    close: () => close(server),
  } as ForbiddenServer;
}

export async function startTestSite(forbidden: { origin: string }): Promise<TestSite> {
  const requests: string[] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://site').pathname;
    requests.push(path);
    if (path === '/docs' || path === '/redirect-to-forbidden') {
      res.writeHead(302, { location: `${forbidden.origin}/internal` }).end();
      return;
    }
    const file = normalize(path === '/' ? '/index.html' : path).replace(/^(\.\.[/\\])+/, '');
    try {
      let body = await readFile(join(SITE_DIR, file));
      const type = TYPES[extname(file)] ?? 'application/octet-stream';
      if (type.startsWith('text/html')) {
        body = Buffer.from(
          body
            .toString('utf8')
            .replaceAll('{{FORBIDDEN_WS}}', forbidden.origin.replace('http:', 'ws:'))
            .replaceAll('{{FORBIDDEN}}', forbidden.origin),
        );
      }
      res.writeHead(200, { 'content-type': type }).end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
    }
  });
  const port = await listen(server, '127.0.0.1');
  return { origin: `http://127.0.0.1:${port}`, requests, close: () => close(server) };
}

async function listen(server: Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
