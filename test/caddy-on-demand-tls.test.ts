// The shipped deploy/caddy/Caddyfile in front of the real app: on-demand TLS asks /tls/ask, so only a verified
// custom domain gets a certificate (from Caddy's internal CA here: no internet), and the Host reaches the app.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from './helpers/dns-server';
import { freePort } from './helpers/free-port';
import { startTestServer, type TestServer } from './helpers/server';
import { createShare, demoWithSteps } from './helpers/shares';

const CADDYFILE = new URL('../deploy/caddy/Caddyfile', import.meta.url).pathname;

function findCaddy(): string | null {
  try {
    execFileSync('caddy', ['version'], { stdio: 'ignore' });
    return 'caddy';
  } catch {
    return null;
  }
}

const caddy = findCaddy();
if (!caddy) {
  // CI installs it (.ci/run): there, its absence is a failure, not a skip.
  if (process.env.CI === 'true') throw new Error('caddy is not installed, and CI must run the Caddy test (.ci/run installs the Debian package)');
  console.warn(`\n${'!'.repeat(78)}\n!! CADDY TEST SKIPPED: no caddy on PATH. Install it (apt-get install caddy) to run it.\n${'!'.repeat(78)}\n`);
}

/** An HTTPS request to Caddy for `name` (SNI and Host), trusting only Caddy's internal root. */
function fetchVia(port: number, name: string, path: string, ca: string): Promise<{ status: number; body: string; altNames: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, servername: name, path, headers: { host: name, accept: 'text/html' }, ca, agent: false },
      (res) => {
        const altNames = (res.socket as import('node:tls').TLSSocket).getPeerCertificate().subjectaltname ?? '';
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, altNames }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function listening(port: number, child: ChildProcess, output: () => string) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`caddy exited (${child.exitCode}):\n${output()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.end();
        resolve(true);
      }).on('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!caddy)('Caddy on-demand TLS (deploy/caddy/Caddyfile)', () => {
  let t: TestServer;
  let dns: TestDnsServer;
  let proc: ChildProcess;
  let home: string;
  let httpsPort: number;
  let token: string;
  let removeId: string;
  let removeDomain: () => Promise<number>;
  let log = '';
  const ca = () => readFileSync(join(home, 'data/caddy/pki/authorities/local/root.crt'), 'utf8');

  beforeAll(async () => {
    dns = await startDnsServer();
    t = await startTestServer({ config: { APP_URL: 'https://app.demoshare.test', DNS_SERVERS: [dns.address] } });
    const admin = await t.signUp();
    const key = await t.apiKey('all', admin);
    token = (await createShare(t, key, await demoWithSteps(t, key, 1))).token;
    const verified = (await admin.inject({ method: 'POST', url: '/v1/domains', payload: { hostname: 'demos.example.test' } })).json().data;
    const txt = verified.records.find((r: { type: string }) => r.type === 'TXT');
    dns.txt.set(txt.name, [txt.value]);
    expect((await admin.inject({ method: 'POST', url: `/v1/domains/${verified.id}/verify` })).json().data.status).toBe('verified');
    removeId = verified.id;
    await admin.inject({ method: 'POST', url: '/v1/domains', payload: { hostname: 'pending.example.test' } });
    removeDomain = async () => (await admin.inject({ method: 'DELETE', url: `/v1/domains/${removeId}` })).statusCode;

    home = mkdtempSync(join(tmpdir(), 'demoshare-caddy-'));
    httpsPort = await freePort();
    const upstream = new URL(t.url).host;
    proc = spawn(caddy as string, ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_DATA_HOME: join(home, 'data'),
        XDG_CONFIG_HOME: join(home, 'config'),
        DEMOSHARE_TLS: 'internal',
        DEMOSHARE_UPSTREAM: upstream,
        DEMOSHARE_APP_HOST: 'app.demoshare.test',
        CADDY_HTTP_PORT: String(await freePort()),
        CADDY_HTTPS_PORT: String(httpsPort),
        CADDY_ADMIN: `127.0.0.1:${await freePort()}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    proc.stdout?.on('data', (d) => (log += d));
    proc.stderr?.on('data', (d) => (log += d));
    await listening(httpsPort, proc, () => log);
  }, 120_000);

  afterAll(async () => {
    if (proc && proc.exitCode === null) {
      proc.kill('SIGTERM');
      await new Promise((r) => proc.once('exit', r));
    }
    await t?.close();
    await dns?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('gives a verified custom domain a certificate and passes its Host on to the app', async () => {
    const res = await fetchVia(httpsPort, 'demos.example.test', `/s/${token}`, ca());
    expect(res.altNames).toContain('DNS:demos.example.test');
    expect(res.status, log).toBe(200);
    expect(res.body).toContain(`content="https://demos.example.test/s/${token}"`);
  });

  it('gives no certificate to an unverified or unknown name', async () => {
    for (const name of ['pending.example.test', 'unknown.example.test']) {
      await expect(fetchVia(httpsPort, name, '/', ca()), name).rejects.toThrow(/alert|EPROTO|socket hang up|ECONNRESET/i);
    }
    // Caddy's own CA would sign any name: the refusal is the ask endpoint's answer.
    const ask = await fetch(`${t.url}/tls/ask?domain=pending.example.test`);
    expect(ask.status).toBe(404);
  });

  it('stops serving a removed domain (its certificate may stay cached, the app answers 404)', async () => {
    expect(await removeDomain()).toBe(204);
    const res = await fetchVia(httpsPort, 'demos.example.test', `/s/${token}`, ca());
    expect(res.status).toBe(404);
    expect(res.body).toContain('Nothing is published on this domain');
  });
});
