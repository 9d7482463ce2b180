import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** Names the run's directory for every test process, which inherits it through the environment. */
export const RUN_DIR_VARIABLE = 'DEMOSHARE_TEST_RUN_DIR';

/** The run's template database on the PostgreSQL server (helpers/database.ts): one per run, since other runs may share the server. */
export const templateDatabaseName = (runDir: string) => `ds_template_${createHash('sha256').update(runDir).digest('hex').slice(0, 16)}`;

/**
 * vitest's global set-up: what the test processes of one run share, made once for all of them (the
 * migrated PGlite template in a directory, the PostgreSQL template database), and removed when the run ends.
 */
export default function setup(): () => Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'demoshare-test-run-'));
  process.env[RUN_DIR_VARIABLE] = dir;
  return async () => {
    rmSync(dir, { recursive: true, force: true });
    const server = process.env.TEST_DATABASE_URL;
    if (!server) return;
    const client = new pg.Client({ connectionString: server });
    await client.connect();
    try {
      const name = templateDatabaseName(dir);
      for (const database of [name, `${name}_building`]) await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
}
