import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CallbackReceiver {
  /** The redirect URI to register: http://127.0.0.1:<port>/callback. */
  url: string;
  /** Every address the browser was sent back to, in order. */
  received: URL[];
  close(): Promise<void>;
}

/** A third-party application's redirect endpoint: it only records where the browser was sent back to. */
export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const received: URL[] = [];
  let url = '';
  const server = createServer((req, res) => {
    const at = new URL(req.url ?? '/', url);
    if (at.pathname === '/callback') received.push(at);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Connected</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`;
  return { url, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
