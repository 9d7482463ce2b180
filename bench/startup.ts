// A first `demoshare start` on an empty DATA_DIR, timed stage by stage from the lines it prints, to "listening".
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 1);
for (let run = 1; run <= runs; run++) {
  const dataDir = mkdtempSync(join(tmpdir(), 'demoshare-start-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['bin/demoshare.js', 'start'], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(39_000 + run), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    let buffer = '';
    child.stderr.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 1);
        lines.push(`${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s  ${line}`);
        if (line.includes('listening on')) resolve();
      }
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code} before listening:\n${lines.join('\n')}`)));
  });
  console.log(`run ${run}:\n${lines.join('\n')}`);
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
