import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesUnder } from '../src/backup/embedded-compact';
import { openDatabase } from '../src/db/client';
import { cleanEnv, type RunningServer, runCli, startCli } from './helpers/cli';
import { engine } from './helpers/database';
import { expectSeededInstance, type Seeded, seedDataDir } from './helpers/seeded-instance';
import { bearer, createTestApp } from './helpers/test-app';

// Real child processes on a real data directory (see cli-backup.test.ts): the embedded database only.
const SLOW = { timeout: 600_000 };
const CHURNED = 400;

describe.skipIf(engine !== 'pglite')('demoshare compact', SLOW, () => {
  let root: string;
  let dataDir: string;
  let seeded: Seeded;
  let server: RunningServer | undefined;
  const env = (extra: Record<string, string> = {}) => cleanEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extra });

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'demoshare-compact-'));
    dataDir = path.join(root, 'data');
    seeded = await seedDataDir(dataDir);
    // Space held by deleted rows: demos created and deleted through the API, no upkeep running.
    const database = await openDatabase({ dataDir });
    const t = await createTestApp({ database: { database, drop: () => database.close() }, config: { RATE_LIMIT_PER_MINUTE: 100_000 } });
    try {
      const ids: string[] = [];
      for (let i = 0; i < CHURNED; i++) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v1/demos',
          headers: bearer(seeded.key),
          payload: { title: `Deleted ${i} ${'x'.repeat(180)}`, source_url: `https://example.com/${'y'.repeat(300)}/${i}` },
        });
        expect(res.statusCode, res.body).toBe(201);
        ids.push(res.json().data.id);
      }
      for (const id of ids) {
        expect((await t.app.inject({ method: 'DELETE', url: `/v1/demos/${id}`, headers: bearer(seeded.key) })).statusCode).toBe(204);
      }
    } finally {
      await t.close();
      // The app does not close a database it was given; the data directory's lock goes with it.
      await database.close();
    }
  }, 600_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('refuses while the server runs, naming it, and changes nothing', async () => {
    server = await startCli('start', env());
    const refused = await runCli(['compact'], env());
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/Cannot compact the database while Demoshare is running .* \(pid \d+\)/);
    expect(refused.stderr).toContain('Stop the server');
    expect(refused.stderr).not.toMatch(/\n\s+at /);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
  });

  it('gives the deleted rows’ space back to the disk, with every row kept', async () => {
    const base = path.join(dataDir, 'pgdata', 'base');
    const before = bytesUnder(base);
    const res = await runCli(['compact'], env());
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/Compacted the embedded database in .* tables and indexes \d+\.\d MB → \d+\.\d MB/);
    expect(res.stderr).toContain("Every table's row count is unchanged");
    const after = bytesUnder(base);
    // At least the churned rows' share: about 700 bytes each with their index entries.
    expect(before - after).toBeGreaterThan(CHURNED * 500);

    server = await startCli('start', env());
    await expectSeededInstance(server.url, seeded);
    expect(await server.stop()).toEqual({ code: 0, signal: null });
    server = undefined;
  });

  it('points PostgreSQL deployments to VACUUM FULL instead of touching anything', async () => {
    const res = await runCli(['compact'], env({ DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' }));
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('compact is for the embedded database');
    expect(res.stderr).toContain('VACUUM FULL');
  });
});
