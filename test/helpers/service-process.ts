/**
 * Real processes for the multi-process and fault tests: `demoshare serve` / `demoshare worker` children,
 * a private `redis-server`, and a PostgreSQL database of the test's own.
 *
 *   const db = await createPostgresDatabase();             // fresh, EMPTY (no migrations); { url, drop() }
 *   const redis = await new RedisServer().start();         // redis-server on a free port; redis.url
 *   const api = await ServiceProcess.serve({ DATABASE_URL: db.url, REDIS_URL: redis.url }).start();
 *   await fetch(`${api.url}/healthz`);                     // api.url = http://127.0.0.1:<port>
 *   const worker = await ServiceProcess.worker({ DATABASE_URL: db.url }).start();
 *   worker.pid;                                            // for RSS sampling (/proc/<pid>/status)
 *   await worker.kill();                                   // SIGKILL, like a crash; resolves on exit
 *   await api.restart();                                   // SIGTERM, wait, start again on the SAME port
 *   await redis.stop(); await redis.start();               // Redis away and back, same port and url
 *   redis.pause(); redis.resume();                         // Redis hung (SIGSTOP) and answering again
 *   await api.stop(); await redis.stop(); await db.drop(); // in afterAll
 *
 * `start()` resolves once the child says "listening on <address>" (serve) or "... running" (worker), and
 * rejects with the child's output if it exits first or takes longer than the timeout. `output` holds all
 * stdout + stderr of every run (put it in failure messages); `waitForOutput(/re/)` waits for a line.
 * Defaults for every child: SECRET_KEY = TEST_SECRET, LOG_LEVEL warn, a temporary DATA_DIR, a pool of 4
 * connections, HOST 127.0.0.1 and, for serve, a free PORT reserved up front with APP_URL naming it (so
 * share links point at this process and a restart comes back on the same address). Anything in `env`
 * overrides them. Children still running when the test process exits are SIGKILLed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { freePort } from './free-port';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { TEST_DATABASE_URL } from './database';
import { TEST_SECRET } from './test-app';

export { freePort };

const CLI = fileURLToPath(new URL('../../bin/demoshare.js', import.meta.url));

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Base class: one long-running child that can be started, killed and started again. */
abstract class ChildRunner {
  protected child: ChildProcess | undefined;
  /** stdout + stderr of every run so far, in arrival order. */
  output = '';
  private listeners: Array<() => void> = [];

  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  /** How the last run ended: its exit code, or null while it runs or when a signal ended it. */
  get exitCode(): number | null {
    return this.child?.exitCode ?? null;
  }

  get running(): boolean {
    const child = this.child;
    return !!child && child.exitCode === null && child.signalCode === null;
  }

  /** The last `lines` lines of output, for failure messages. */
  tail(lines = 40): string {
    return this.output.split('\n').slice(-lines).join('\n');
  }

  /** Resolves once the output (from now on, or already) matches `pattern`. */
  async waitForOutput(pattern: RegExp, timeoutMs = 30_000, from = 0): Promise<RegExpExecArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const match = pattern.exec(this.output.slice(from));
      if (match) return match;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${pattern} in the output of ${this.describe()}:\n${this.tail()}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 250));
        this.listeners.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  protected abstract describe(): string;

  protected spawnChild(command: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    const collect = (c: Buffer) => {
      this.output += c.toString();
      for (const wake of this.listeners.splice(0)) wake();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    child.once('exit', () => {
      live.delete(child);
      for (const wake of this.listeners.splice(0)) wake();
    });
    this.child = child;
    return child;
  }

  /** Waits for `ready` in the output of the current run, or rejects when the child exits first. */
  protected async awaitReady(ready: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    const child = this.child!;
    const from = this.output.length;
    const exited = new Promise<never>((_, reject) => {
      child.once('exit', (code, signal) =>
        reject(new Error(`${this.describe()} exited (${signal ?? code}) before it was ready:\n${this.tail()}`)),
      );
    });
    exited.catch(() => {});
    try {
      return await Promise.race([this.waitForOutput(ready, timeoutMs, from), exited]);
    } catch (error) {
      if (this.running) await this.kill();
      throw error;
    }
  }

  /** SIGKILL: no clean-up, no graceful shutdown, exactly like a crash. Resolves once the child is gone. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGTERM (graceful stop), then SIGKILL if it is not gone after `timeoutMs`. Resolves on exit. */
  async stop(timeoutMs = 30_000): Promise<void> {
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), timeoutMs);
    try {
      await this.signal('SIGTERM');
    } finally {
      clearTimeout(timer);
    }
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}

export type ServiceRole = 'serve' | 'worker' | 'start';

/**
 * Worker children of one test file, started on demand with `env()` (read at each start, so it can name a
 * database made in beforeAll) and all killed by `killAll` in its afterAll.
 */
export function workerChildren(env: () => Record<string, string | undefined>) {
  const started: ServiceProcess[] = [];
  return {
    async start(): Promise<ServiceProcess> {
      const worker = await ServiceProcess.worker(env()).start();
      started.push(worker);
      return worker;
    },
    async killAll(): Promise<void> {
      await Promise.all(started.map((w) => w.kill()));
    },
  };
}

/** A real `demoshare serve|worker|start` child process. */
export class ServiceProcess extends ChildRunner {
  /** Origin of a serving process, e.g. http://127.0.0.1:41234 (empty for a worker). */
  url = '';
  private readonly env: Record<string, string>;
  private readonly dataDir = mkdtempSync(path.join(tmpdir(), 'ds-process-'));

  constructor(
    readonly role: ServiceRole,
    env: Record<string, string | undefined> = {},
  ) {
    super();
    this.env = Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
  }

  static serve(env: Record<string, string | undefined> = {}): ServiceProcess {
    return new ServiceProcess('serve', env);
  }

  static worker(env: Record<string, string | undefined> = {}): ServiceProcess {
    return new ServiceProcess('worker', env);
  }

  protected describe(): string {
    return `demoshare ${this.role}${this.child?.pid ? ` (pid ${this.child.pid})` : ''}`;
  }

  /** Starts the process; resolves once it listens (serve, start) or runs (worker). */
  async start(timeoutMs = 60_000): Promise<this> {
    if (this.running) throw new Error(`${this.describe()} is already running`);
    const serves = this.role !== 'worker';
    if (serves && !this.env.PORT) {
      // Reserved once: share links can name it, and a restart comes back on the same address.
      const port = await freePort();
      this.env.PORT = String(port);
      this.env.APP_URL ??= `http://127.0.0.1:${port}`;
    }
    this.spawnChild(process.execPath, [CLI, this.role], {
      ...process.env,
      // One key for every process of a test, as the operations guide requires of a real deployment.
      SECRET_KEY: TEST_SECRET,
      // A directory of its own: nothing left over from another test or run.
      DATA_DIR: this.dataDir,
      // Several processes per test file, test files at once, one PostgreSQL server: 10 connections each
      // would run it out of connections.
      DATABASE_POOL_SIZE: '4',
      // `output` goes into failure messages: warnings and errors, not a line per request.
      LOG_LEVEL: 'warn',
      // Loopback only: a test server is not for the network.
      HOST: '127.0.0.1',
      ...this.env,
    });
    const match = await this.awaitReady(serves ? /listening on (\S+)/ : /worker running/, timeoutMs);
    if (serves) this.url = match[1]!.replace(/\/$/, '');
    return this;
  }

  /** A graceful stop, then a start with the same environment (and the same port). */
  async restart(timeoutMs = 60_000): Promise<this> {
    await this.stop();
    return this.start(timeoutMs);
  }

  /** fetch() against this process: `api.fetch('/v1/demos', { headers })`. */
  fetch(pathname: string, init?: RequestInit): Promise<Response> {
    if (!this.url) throw new Error(`${this.describe()} does not serve HTTP (or has not started)`);
    return fetch(`${this.url}${pathname}`, init);
  }
}

/** A private `redis-server` (no persistence) on a port of its own; stop() and start() keep the port. */
export class RedisServer extends ChildRunner {
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  protected describe(): string {
    return `redis-server :${this.port}`;
  }

  async start(timeoutMs = 15_000): Promise<this> {
    if (this.running) throw new Error(`${this.describe()} is already running`);
    this.port ||= await freePort();
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    this.spawnChild('redis-server', args, process.env);
    await this.awaitReady(/Ready to accept connections/, timeoutMs);
    return this;
  }

  /** SIGSTOP: Redis hangs with its connections open, as behind a network cut that sends no reset. */
  pause(): void {
    if (this.running) this.child!.kill('SIGSTOP');
  }

  /** A paused Redis is resumed first: it could not act on the SIGTERM. */
  override async stop(timeoutMs?: number): Promise<void> {
    this.resume();
    await super.stop(timeoutMs);
  }

  /** SIGCONT: the paused Redis answers again, on the connections it had. */
  resume(): void {
    if (this.running) this.child!.kill('SIGCONT');
  }
}

export interface PostgresDatabase {
  /** Connection string of the new database. */
  url: string;
  drop(): Promise<void>;
}

/**
 * A freshly created, EMPTY database on the TEST_DATABASE_URL server: no migrations, no job schema (the
 * processes started on it do that). For a migrated one, use createTestDatabase() in ./database.
 */
export async function createPostgresDatabase(): Promise<PostgresDatabase> {
  if (!TEST_DATABASE_URL) throw new Error('createPostgresDatabase needs TEST_DATABASE_URL (a PostgreSQL server)');
  const name = `ds_proc_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
