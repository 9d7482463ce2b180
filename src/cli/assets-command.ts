// `demoshare assets move`: the CLI side of moving assets' bytes between the database and a blob store (demos/move-assets.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { assetStoreOf } from '../asset-store';
import type { Config } from '../config';
import { AppError } from '../core/errors';
import type { AssetStoreKind, BlobStore } from '../core/blob-store/blob-store';
import { systemClock } from '../core/clock';
import { openConfiguredDatabase } from '../runtime';
import { collectBlobs } from '../demos/blob-collector';
import { AssetMoveError, type AssetCounts, byteSize as bytes, type MoveReport, moveAssets, type PlaceCount } from '../demos/move-assets';

export const ASSETS_USAGE = `Usage: demoshare assets move --to database|filesystem|s3 [--from filesystem|s3] [--dry-run]
                             [--batch-size N] [--limit N] [--delete-source]

Moves existing assets' bytes out of their database rows into a blob store (filesystem: DATA_DIR/blobs; s3: the
S3_* settings), or back into the database (--to database, reading from --from, by default ASSET_STORE). Each
asset is written to the target and checked against its SHA-256 before its row is switched; a run stopped
half-way carries on when run again. Prints the assets and bytes per place before and after, and exits 1 when
they are not what the move implies.
  --dry-run        count only
  --batch-size N   rows read per query (default 100)
  --limit N        stop after N assets moved (run again to carry on)
  --delete-source  with --to database: afterwards, delete the blobs of the old store that no row names and
                   that were last written before ASSET_GC_GRACE (the collector's rule)
See docs/object-storage.md ("Moving existing assets").`;

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };

/** A mistake in the command line: main prints it with the usage and exits 2. */
export class AssetsUsageError extends Error {}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: false,
      strict: true,
      options: {
        to: { type: 'string' },
        from: { type: 'string' },
        'dry-run': { type: 'boolean' },
        'batch-size': { type: 'string' },
        limit: { type: 'string' },
        'delete-source': { type: 'boolean' },
      },
    }).values;
  } catch (error) {
    throw new AssetsUsageError((error as Error).message);
  }
}

function positive(value: string | undefined, name: string, fallback?: number): number | undefined {
  if (value === undefined) return fallback;
  if (!/^[1-9][0-9]*$/.test(value)) throw new AssetsUsageError(`--${name} must be a whole number above 0.`);
  return Number(value);
}

/** Runs `demoshare assets <sub> ...`; returns the exit code. */
export async function assetsCommand(args: string[], config: Config, out: Out): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'move') throw new AssetsUsageError(ASSETS_USAGE);
  const values = parse(rest);
  const to = values.to;
  if (to !== 'database' && to !== 'filesystem' && to !== 's3') throw new AssetsUsageError('--to must be database, filesystem or s3.');
  const fromFlag = values.from;
  if (fromFlag !== undefined && fromFlag !== 'filesystem' && fromFlag !== 's3') throw new AssetsUsageError('--from must be filesystem or s3.');
  if (values['delete-source'] && to !== 'database') {
    throw new AssetsUsageError('--delete-source is for --to database: moving into a store leaves nothing behind but the emptied rows.');
  }
  const batchSize = positive(values['batch-size'], 'batch-size', 100)!;
  const limit = positive(values.limit, 'limit');
  const fromKind: Exclude<AssetStoreKind, 'database'> | undefined = fromFlag ?? (config.ASSET_STORE === 'database' ? undefined : config.ASSET_STORE);
  if (to === 'database' && !fromKind) {
    throw new AssetsUsageError('--to database reads the blobs from a store: name it with --from filesystem|s3 (ASSET_STORE is database).');
  }
  if (!config.DATABASE_URL && !existsSync(path.join(config.DATA_DIR, 'pgdata'))) {
    out.stderr(`There is no embedded database in ${path.resolve(config.DATA_DIR)} (DATA_DIR): nothing to move.`);
    return 1;
  }

  const storeOf = (kind: Exclude<AssetStoreKind, 'database'>): BlobStore => {
    if (kind === 's3' && !config.S3_BUCKET) throw new AssetsUsageError('The s3 store needs S3_BUCKET (and the other S3_* settings, docs/object-storage.md).');
    return assetStoreOf({ ...config, ASSET_STORE: kind })!;
  };
  const target = to === 'database' ? undefined : storeOf(to);
  const from = fromKind === undefined ? undefined : fromKind === to ? target : storeOf(fromKind);
  const storeName = `${(target ?? from)!.kind} store`;
  const database = await openConfiguredDatabase(config);
  try {
    const dryRun = values['dry-run'] === true;
    out.stderr(
      `${dryRun ? 'Counting' : 'Moving'} assets ${to === 'database' ? `from the ${storeName} into the database` : `from the database into the ${storeName}`}` +
        `${(target ?? from)!.kind === 'filesystem' ? ` (${path.resolve(config.DATA_DIR, 'blobs')})` : ''}...`,
    );
    let report: MoveReport;
    try {
      report = await moveAssets({ db: database.db, to: target ?? 'database', from, batchSize, limit, dryRun, log: out.stderr });
    } catch (error) {
      if (error instanceof AssetMoveError) {
        out.stderr(error.message);
        return 1;
      }
      if (error instanceof AppError) {
        // The store out of reach or refusing: what it said, and that nothing is half-moved.
        const cause = (error as { cause?: unknown }).cause;
        out.stderr(
          `${error.message}${cause instanceof Error ? ` (${cause.name}: ${cause.message})` : ''}. The assets moved so far are moved; ` +
            'the others are where they were: run the command again once the store answers.',
        );
        return 1;
      }
      throw error;
    }
    out.stdout(comparison(report, storeName, dryRun));
    return await finish(report, { config, to, storeName, dryRun, from, deleteSource: values['delete-source'] === true, database, out });
  } finally {
    await database.close();
    await target?.close();
    if (from !== target) await from?.close();
  }
}

async function finish(
  report: MoveReport,
  c: {
    config: Config;
    to: AssetStoreKind;
    storeName: string;
    dryRun: boolean;
    from?: BlobStore;
    deleteSource: boolean;
    database: Awaited<ReturnType<typeof openConfiguredDatabase>>;
    out: Out;
  },
): Promise<number> {
  const { out, to, storeName } = c;
  const source = to === 'database' ? 'blobs' : 'database';
  const sourceName = to === 'database' ? storeName : 'the database';
  if (c.dryRun) {
    out.stderr(`Would move ${report.before[source].assets} assets (${bytes(report.before[source].bytes)}) ${to === 'database' ? 'into the database' : `into the ${storeName}`}. Nothing was moved.`);
    return 0;
  }
  for (const f of report.failures.slice(0, 10)) {
    out.stderr(
      `  asset ${f.id}: blob ${f.blobKey} ${f.problem === 'missing' ? `is missing from the ${storeName}` : 'does not match the SHA-256 its row records'}; left where it is`,
    );
  }
  if (report.failures.length > 10) out.stderr(`  and ${report.failures.length - 10} more`);
  if (!report.ok) {
    out.stderr(
      report.failures.length > 0
        ? `${report.failures.length} assets could not be moved: their bytes are missing or damaged where their row says they are. ` +
            'Put those blobs back (from a backup of the store) and run the command again; the other assets were moved.'
        : 'The counts after the move are not the ones the move implies (MISMATCH above): assets were added or deleted while it ran. ' +
            'Run the command again: it moves what is left and compares anew.',
    );
    return 1;
  }
  out.stderr(`Moved ${report.moved.assets} assets (${bytes(report.moved.bytes)}); the counts match.`);
  if (report.stoppedEarly) {
    out.stderr(`Stopped by --limit with ${report.after[source].assets} assets still in ${sourceName}: run the command again to carry on.`);
    return 0;
  }
  if (report.newer.assets > 0) {
    out.stderr(
      `${report.newer.assets} assets written since the move began are still in ${sourceName} (a process still runs with the old ` +
        `ASSET_STORE): start every process with ASSET_STORE=${to}, then run the command again.`,
    );
  }
  if (c.config.ASSET_STORE !== to) {
    out.stderr(`Start every process of this instance with ASSET_STORE=${to}: it is ${c.config.ASSET_STORE} here.`);
  }
  if (to !== 'database') {
    out.stderr(
      c.config.DATABASE_URL
        ? 'The emptied rows\' space is reused by PostgreSQL (autovacuum); VACUUM FULL assets returns it to the disk (it locks the table while it runs).'
        : 'The emptied rows\' space goes back to the disk with `demoshare compact`.',
    );
    return 0;
  }
  if (!c.deleteSource) {
    out.stderr(
      `The blobs stay in the ${storeName}, named by no row: the daily collector deletes them while ASSET_STORE=${c.from!.kind}; ` +
        'with ASSET_STORE=database it does not run: run this command with --delete-source to delete them.',
    );
    return 0;
  }
  const collected = await collectBlobs({ database: c.database, assetStore: c.from!, clock: systemClock, graceMs: c.config.ASSET_GC_GRACE });
  out.stderr(
    `Deleted ${collected.deleted} blobs of the ${storeName} that no row names (of ${collected.listed} listed)` +
      (collected.listed - collected.deleted > 0
        ? `; ${collected.listed - collected.deleted} stay: named by a row, or written within ASSET_GC_GRACE (run --delete-source again later).`
        : '.'),
  );
  return 0;
}


/** The counts side by side: each place before, after and as the move implies, MISMATCH where they differ. */
function comparison(report: MoveReport, storeName: string, dryRun: boolean): string {
  const cell = (c: PlaceCount) => `${String(c.assets).padStart(8)} ${String(c.bytes).padStart(14)}`;
  const total = (c: AssetCounts): PlaceCount => ({ assets: c.database.assets + c.blobs.assets, bytes: c.database.bytes + c.blobs.bytes });
  const label = (name: string) => name.padEnd(22);
  const columns = dryRun ? ['now'] : ['before', 'after', 'expected after'];
  const lines = [
    `Assets created up to ${report.until.toISOString()}, by where their bytes are:`,
    label('') + columns.map((c) => c.padStart(23)).join('  '),
    label('') + columns.map(() => `${'assets'.padStart(8)} ${'bytes'.padStart(14)}`).join('  '),
  ];
  const places: Array<[string, (c: AssetCounts) => PlaceCount]> = [
    ['database', (c) => c.database],
    [storeName, (c) => c.blobs],
    ['total', total],
  ];
  for (const [name, of] of places) {
    if (dryRun) {
      lines.push(label(name) + cell(of(report.before)));
      continue;
    }
    const [b, a, e] = [of(report.before), of(report.after), of(report.expected)];
    lines.push(label(name) + [b, a, e].map(cell).join('  ') + (a.assets === e.assets && a.bytes === e.bytes ? '' : '  MISMATCH'));
  }
  if (report.vanished.assets > 0) lines.push(`(${report.vanished.assets} assets were deleted while the move ran)`);
  return lines.join('\n');
}
