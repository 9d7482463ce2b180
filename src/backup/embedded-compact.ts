// `demoshare compact`: VACUUM FULL of the stopped embedded database, to give the space deleted rows held back to the disk.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { countRows, dataTables } from './catalog.repo';
import { compareCounts } from './counts';
import { BackupError, openStopped } from './embedded-backup';

export interface CompactResult {
  /** Bytes of tables and indexes (`pgdata/base`), before and after. */
  tables: { before: number; after: number };
  /** Bytes of the whole data directory, WAL included, before and after. */
  total: { before: number; after: number };
  ms: number;
}

/** The bytes of every file below `dir`. */
export function bytesUnder(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? bytesUnder(full) : statSync(full).size;
  }
  return total;
}

/**
 * Rewrites every table of the stopped embedded database (VACUUM FULL), so that the space deleted rows held
 * goes back to the disk instead of waiting for reuse: after erasures, blurs or a large clean-up. The
 * upkeep of a running server (db/embedded-maintenance.ts) only makes that space reusable. The counts of
 * every table are compared before and after, as restore does.
 */
export async function compactEmbedded(options: { dataDir: string }): Promise<CompactResult> {
  const pgdata = path.join(options.dataDir, 'pgdata');
  if (!existsSync(pgdata)) {
    throw new BackupError(`There is no embedded database in ${path.resolve(options.dataDir)} (DATA_DIR): nothing to compact.`);
  }
  const started = performance.now();
  const before = { tables: bytesUnder(path.join(pgdata, 'base')), total: bytesUnder(pgdata) };
  const database = await openStopped(options.dataDir, 'compact the database');
  try {
    const run = database.executeSql.bind(database);
    const tables = await dataTables(run);
    const counted = await countRows(run, tables);
    await run('vacuum (full, analyze)');
    // The rewrite went through the WAL: a checkpoint lets the next start skip replaying it.
    await run('checkpoint');
    const comparison = compareCounts(counted, await countRows(run, tables), ['before', 'after']);
    if (!comparison.ok) throw new BackupError(`The row counts changed while compacting:\n${comparison.text}`);
  } finally {
    await database.close();
  }
  return {
    tables: { before: before.tables, after: bytesUnder(path.join(pgdata, 'base')) },
    total: { before: before.total, after: bytesUnder(pgdata) },
    ms: Math.round(performance.now() - started),
  };
}
