/** The service as child processes for the benchmarks that need a real server (soak, overload). */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { freePort } from '../test/helpers/free-port';

export { freePort };

const CLI = path.join(import.meta.dirname, '..', 'bin', 'demoshare.js');

export interface Proc {
  name: string;
  child: ChildProcess;
  output: string;
}

/** `demoshare <command>` as a child process; resolves when it says it listens or runs (or, for a one-shot command, exits 0). */
export function demoshare(name: string, command: string[], env: NodeJS.ProcessEnv, until: RegExp | 'exit'): Promise<Proc> {
  const child = spawn(process.execPath, [CLI, ...command], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc: Proc = { name, child, output: '' };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start in 120 s:\n${proc.output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      proc.output += chunk;
      if (until !== 'exit' && until.test(proc.output)) {
        clearTimeout(timer);
        resolve(proc);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (until === 'exit' && code === 0) resolve(proc);
      else reject(new Error(`${name} exited with ${code}:\n${proc.output}`));
    });
  });
}

/** SIGTERM, then SIGKILL after 30 s. */
export async function stop(proc: Proc) {
  const { child } = proc;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/** A user and an API key with every scope, through the CLI, before a server holds the data directory. Returns the key. */
export async function createUserAndKey(env: NodeJS.ProcessEnv, email: string, keyName: string): Promise<string> {
  await demoshare('users create', ['users', 'create', '--email', email, '--password', 'correct horse battery staple'], env, 'exit');
  const keyProc = await demoshare('keys create', ['keys', 'create', '--email', email, '--name', keyName, '--scopes', 'all'], env, 'exit');
  // The CLI prints the key alone on stdout (stderr may carry warnings): its last line.
  return keyProc.output.trim().split('\n').at(-1)!.trim();
}

/**
 * A database of its own on the PostgreSQL server at `baseUrl`, for one bench run: its address, and how to
 * drop it (with FORCE: a killed child may still hold connections).
 */
export async function scratchDatabase(baseUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
