import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SECRET } from './test-app';

const CLI = fileURLToPath(new URL('../../bin/demoshare.js', import.meta.url));

/** A real `demoshare worker` child process on the given PostgreSQL database. */
export class WorkerProcess {
  private child: ChildProcess | undefined;
  output = '';

  constructor(
    private readonly databaseUrl: string,
    private readonly env: Record<string, string> = {},
  ) {}

  /** Resolves once the worker says it is running. */
  async start(timeoutMs = 60_000): Promise<this> {
    const child = spawn(process.execPath, [CLI, 'worker'], {
      env: {
        ...process.env,
        DATABASE_URL: this.databaseUrl,
        DATABASE_POOL_SIZE: '4',
        SECRET_KEY: TEST_SECRET,
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'ds-worker-')),
        LOG_LEVEL: 'warn',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (c: Buffer) => {
      this.output += c.toString();
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker did not start:\n${this.output}`)), timeoutMs);
      child.stderr?.on('data', (c: Buffer) => {
        this.output += c.toString();
        if (this.output.includes('worker running')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`worker exited with ${code}:\n${this.output}`));
      });
    });
    return this;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** SIGKILL: no clean-up, no graceful shutdown, exactly like a crash. */
  async kill9(): Promise<void> {
    await this.signal('SIGKILL');
  }

  /** SIGTERM: the graceful stop. */
  async stop(): Promise<void> {
    await this.signal('SIGTERM');
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  }
}
