import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, type RunningServer, runCli, startCli } from './helpers/cli';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './helpers/database';
import { makePng } from './helpers/images';

const KEY = /^dsk_[0-9A-Za-z]{49}$/;
const PASSWORD = 'a long enough password';
// Each command is a fresh Node process compiling TypeScript and opening a database: slow on a busy machine.
const SLOW = { timeout: 300_000 };

async function members(url: string, key: string) {
  const res = await fetch(`${url}/v1/team/members`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as { data: Array<{ email: string; role: string }> } };
}

/** Creates a user and a key through the CLI, as the README's quick start does. */
async function userAndKey(env: NodeJS.ProcessEnv, email: string) {
  const user = await runCli(['users', 'create', '--email', email, '--password', PASSWORD], env);
  expect(user.code, user.stderr).toBe(0);
  expect(user.stdout).toBe('');
  expect(user.stderr).toContain(email);
  const key = await runCli(['keys', 'create', '--email', email, '--name', 'cli test', '--scopes', 'all'], env);
  expect(key.code, key.stderr).toBe(0);
  // stdout holds the key and nothing else, so that KEY=$(demoshare keys create ...) works.
  expect(key.stdout).toMatch(/^dsk_[0-9A-Za-z]{49}\n$/);
  return key.stdout.trim();
}

describe('CLI on the embedded database (DATA_DIR)', SLOW, () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let server: RunningServer | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-cli-'));
    env = cleanEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a user and a key whose value works against `demoshare start` over real HTTP', async () => {
    const email = 'cli.owner@example.com';
    const key = await userAndKey(env, email);
    expect(key).toMatch(KEY);
    expect(existsSync(path.join(dataDir, 'secret.key'))).toBe(true);

    server = await startCli('start', env);
    const res = await members(server.url, key);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([expect.objectContaining({ email, role: 'admin' })]);
    const bad = await members(server.url, `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`);
    expect(bad.status).toBe(401);

    // ASSET_STORE unset: a step's picture goes to a file under DATA_DIR/blobs named by its SHA-256, and comes back.
    const auth = { authorization: `Bearer ${key}` };
    const demo = await fetch(`${server.url}/v1/demos`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Files by default' }),
    });
    expect(demo.status).toBe(201);
    const png = makePng(8, 4, [200, 30, 30]);
    const step = await fetch(`${server.url}/v1/demos/${((await demo.json()) as { data: { id: string } }).data.id}/steps`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'image/png' },
      body: new Uint8Array(png),
    });
    expect(step.status).toBe(201);
    const hex = createHash('sha256').update(png).digest('hex');
    const file = path.join(dataDir, 'blobs', 'sha256', hex.slice(0, 2), hex.slice(2, 4), hex);
    expect(readFileSync(file).equals(png)).toBe(true);
    const imageUrl = ((await step.json()) as { data: { image_url: string } }).data.image_url;
    const image = await fetch(new URL(new URL(imageUrl).pathname, server.url), { headers: auth });
    expect(Buffer.from(await image.arrayBuffer()).equals(png)).toBe(true);
  });

  it('refuses a second process on the same DATA_DIR with a clear "in use" message, harming nothing', async () => {
    expect(server).toBeDefined();
    const second = await runCli(['users', 'create', '--email', 'second@example.com', '--password', PASSWORD], env);
    expect(second.code).not.toBe(0);
    expect(second.stderr).toMatch(/in use by another Demoshare process \(pid \d+\)/);
    expect(second.stderr).not.toMatch(/\n\s+at /);
    const other = await runCli(['start'], { ...env, PORT: '0' });
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('in use');
    // The running server still works and still holds the lock.
    expect((await fetch(`${server!.url}/healthz`)).status).toBe(200);
    expect(existsSync(path.join(dataDir, 'demoshare.lock'))).toBe(true);
  });

  it('finishes an in-flight request on SIGTERM, then exits 0 and releases the lock', async () => {
    const running = server!;
    // Sign in over HTTP and invite through the session, with a body that arrives in two halves.
    const login = await fetch(`${running.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cli.owner@example.com', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]);
    const csrf = (await login.json()).data.csrf_token as string;
    const body = JSON.stringify({ email: 'inflight@example.com', role: 'viewer' });
    const { port } = new URL(running.url);

    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: Number(port),
          method: 'POST',
          path: '/v1/team/members',
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            cookie: cookies.join('; '),
            'x-csrf-token': csrf,
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d) => (text += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
      // Once the first half is surely being read, ask the server to stop, then send the rest.
      // (Generous delays: on a loaded machine the server may take a while to see the request at all.)
      setTimeout(() => {
        running.child.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 500);
      }, 2000);
    });
    const answered = await response;
    expect(answered.status, answered.body).toBe(201);
    expect(JSON.parse(answered.body).data.email).toBe('inflight@example.com');
    const exit = await running.exited;
    server = undefined;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(running.stderr()).toContain('SIGTERM received');
    expect(existsSync(path.join(dataDir, 'demoshare.lock'))).toBe(false);

    // The change made by the in-flight request was kept, and the DATA_DIR opens again.
    const again = await startCli('start', env);
    try {
      const login2 = await fetch(`${again.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'cli.owner@example.com', password: PASSWORD }),
      });
      const cookie = login2.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const list = await fetch(`${again.url}/v1/team/members`, { headers: { cookie } });
      const emails = ((await list.json()) as { data: Array<{ email: string }> }).data.map((m) => m.email);
      expect(emails).toContain('inflight@example.com');
    } finally {
      expect(await again.stop()).toEqual({ code: 0, signal: null });
    }
  });
});

describe('CLI configuration errors', SLOW, () => {
  it('prints one line per problem and exits 1 on bad configuration', async () => {
    const res = await runCli(['start'], cleanEnv({ PORT: 'abc', LOG_LEVEL: 'loud', DATA_DIR: tmpdir() }));
    expect(res.code).toBe(1);
    const lines = res.stderr.trim().split('\n');
    expect(lines[0]).toMatch(/Invalid configuration/);
    const problems = lines.slice(1);
    expect(problems).toHaveLength(2);
    expect(problems.some((l) => /^\s+- PORT: /.test(l))).toBe(true);
    expect(problems.some((l) => /^\s+- LOG_LEVEL: /.test(l))).toBe(true);
    expect(res.stderr).not.toMatch(/\n\s+at /);
  });

  for (const command of ['serve', 'worker']) {
    it(`\`${command}\` without DATABASE_URL exits non-zero with a clear message`, async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-cli-'));
      try {
        const res = await runCli([command], cleanEnv({ DATA_DIR: dataDir }));
        expect(res.code).toBe(1);
        expect(res.stderr).toContain('DATABASE_URL');
        expect(res.stderr).toContain(`demoshare ${command}`);
        expect(res.stderr).not.toMatch(/\n\s+at /);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }

  it('answers an unknown command with usage and exit 2, and `help` with exit 0', async () => {
    const bad = await runCli(['frobnicate'], cleanEnv({}));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Unknown command "frobnicate"');
    const help = await runCli(['help'], cleanEnv({}));
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: demoshare');
  });

  it('refuses `keys create` for an unknown user or unknown scopes with exit 1/2 and prints no key', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-cli-'));
    try {
      const env = cleanEnv({ DATA_DIR: dataDir });
      const unknown = await runCli(['keys', 'create', '--email', 'ghost@example.com', '--name', 'n', '--scopes', 'all'], env);
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toContain('ghost@example.com');
      const scopes = await runCli(['keys', 'create', '--email', 'ghost@example.com', '--name', 'n', '--scopes', 'demos:all'], env);
      expect(scopes.code).not.toBe(0);
      expect(scopes.stdout).toBe('');
      expect(scopes.stderr).toContain('demos:all');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('CLI oauth-apps (in process, embedded database)', SLOW, () => {
  it('verifies and unverifies an app by client_id, and refuses an unknown one or a bad usage', async () => {
    const { main } = await import('../src/cli/main');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-cli-'));
    const lines: string[] = [];
    const out = { stdout: (s: string) => lines.push(`out: ${s}`), stderr: (s: string) => lines.push(s) };
    const env = cleanEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    try {
      expect(await main(['oauth-apps', 'unverify', 'demoshare-recorder'], env, out)).toBe(0);
      expect(lines.at(-1)).toBe('Demoshare Recorder (demoshare-recorder) is no longer verified.');
      expect(await main(['oauth-apps', 'verify', 'demoshare-recorder'], env, out)).toBe(0);
      expect(lines.at(-1)).toBe('Demoshare Recorder (demoshare-recorder) is verified.');
      expect(await main(['oauth-apps', 'verify', 'app_unknown'], env, out)).toBe(1);
      expect(lines.at(-1)).toMatch(/OAuth app not found/i);
      expect(await main(['oauth-apps', 'verify'], env, out)).toBe(2);
      expect(lines.at(-1)).toContain('Usage: demoshare oauth-apps verify|unverify <client_id>');
      expect(lines.some((l) => l.startsWith('out:'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

if (!TEST_DATABASE_URL) console.warn('SKIPPED: CLI on PostgreSQL needs TEST_DATABASE_URL');
describe.skipIf(!TEST_DATABASE_URL)('CLI on PostgreSQL (DATABASE_URL)', SLOW, () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('creates a user and key, and `serve` and `start` both accept the key', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'demoshare-cli-'));
    const env = cleanEnv({
      DATABASE_URL: db.url,
      SECRET_KEY: 'cli-test-secret-that-is-long-enough-0123456789',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    });
    try {
      const key = await userAndKey(env, 'pg.owner@example.com');
      for (const command of ['serve', 'start']) {
        const server = await startCli(command, env);
        try {
          const res = await members(server.url, key);
          expect(res.status).toBe(200);
          expect(res.body.data[0]).toMatchObject({ email: 'pg.owner@example.com', role: 'admin' });
        } finally {
          expect(await server.stop()).toEqual({ code: 0, signal: null });
        }
      }
      // Nothing was written to DATA_DIR: the database and secret live elsewhere.
      expect(existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
