import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const CLI = fileURLToPath(new URL('../../bin/demoshare.js', import.meta.url));

/** The parent's environment without any Demoshare setting, so a child sees only what the test gives it. */
export function cleanEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^(PORT|HOST|APP_URL|API_URL|DATA_DIR|DATABASE_URL|REDIS_URL|SECRET_KEY|SMTP_URL|LOG_LEVEL|RATE_LIMIT_.*|MAX_EVENT_LOOP_DELAY|NODE_OPTIONS|VITEST.*)$/.test(k)) continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `demoshare <args>` to completion (killing it after `timeoutMs`). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

export interface RunningServer {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `demoshare <command>` on a free port and resolves once it prints its listening address. */
export function startCli(command: string, env: NodeJS.ProcessEnv, timeoutMs = 240_000): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, command], {
      // A port of its own, so that test files running at once never collide, on loopback only: a test
      // server is not for the network. A test that needs a known port (share links naming it) gives PORT.
      env: { PORT: '0', HOST: '127.0.0.1', ...env },
      cwd: REPO,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let settled = false;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
      child.on('exit', (code, signal) => done({ code, signal })),
    );
    const timer = setTimeout(() => {
      if (settled) return;
      settled = true;
      child.kill('SIGKILL');
      reject(new Error(`demoshare ${command} did not start within ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.stdout.resume();
    child.stderr.on('data', (d) => {
      stderr += d;
      const match = /listening on (http:\/\/[^\s]+)/.exec(stderr);
      if (match && !settled) {
        settled = true;
        clearTimeout(timer);
        resolve({
          child,
          url: match[1]!,
          stderr: () => stderr,
          exited,
          async stop() {
            if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
            const result = await exited;
            clearTimeout(killer);
            return result;
          },
        });
      }
    });
    void exited.then(({ code }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(new Error(`demoshare ${command} exited with ${code} before listening:\n${stderr}`));
    });
  });
}
