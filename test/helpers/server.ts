import type { AddressInfo } from 'node:net';
import { freePort } from './free-port';
import { createTestApp, type TestApp, type TestAppOptions } from './test-app';
import { ensureHubBuilt, ensurePlayerBuilt, ensureWebBuilt } from './web-build';

export interface TestServer extends TestApp {
  /** Origin of the listening server, e.g. http://127.0.0.1:41234. */
  url: string;
}

export interface TestServerOptions extends TestAppOptions {
  /**
   * Make APP_URL the server's own origin, for pages that put absolute addresses in what they serve (share
   * links, asset URLs of the viewer API): the port is reserved first so the config can name it.
   */
  selfUrl?: boolean;
  /** The loopback address to listen on (127.0.0.1): another one, such as 127.0.0.2, is another host name. */
  host?: string;
}

/** The real app on a real port (for browsers and other out-of-process clients), with web app and player built. */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  await ensureWebBuilt();
  await ensurePlayerBuilt();
  await ensureHubBuilt();
  const { selfUrl, host = '127.0.0.1', ...appOptions } = options;
  const reserved = selfUrl ? await freePort() : 0;
  if (selfUrl) appOptions.config = { APP_URL: `http://127.0.0.1:${reserved}`, ...appOptions.config };
  const t = await createTestApp(appOptions);
  await t.app.listen({ port: reserved, host });
  const { port } = t.app.server.address() as AddressInfo;
  return { ...t, url: `http://${host}:${port}` };
}
