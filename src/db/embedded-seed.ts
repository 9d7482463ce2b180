// A ready-made, migrated embedded cluster, built once at install (`npm run build:seed`), so that a first `demoshare start` copies it instead of running initdb and every migration.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from './client';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const JOURNAL = join(ROOT, 'drizzle', 'meta', '_journal.json');
/** Where the build writes the seed: beside the built web app, never in the repository. */
export const SEED_FILE = join(ROOT, 'dist', 'embedded-seed', 'cluster.tar');
/** The journal digest the seed was built from, beside it. */
const stampOf = (file: string) => `${file}.journal`;

/** What the seed must have been migrated with: the digest of the migrations' journal. */
function journalDigest(): string {
  return createHash('sha256').update(readFileSync(JOURNAL)).digest('hex');
}

/**
 * The seed, when there is one made from the migrations this code carries; undefined otherwise (not built,
 * or built before a migration was added: a start then creates the cluster and migrates as it always did).
 *
 * @example
 * ```ts
 * import { openDatabase } from './client';
 * import { readEmbeddedSeed } from './embedded-seed';
 *
 * const database = await openDatabase({ dataDir: './data', loadDataDir: readEmbeddedSeed() });
 * ```
 */
export function readEmbeddedSeed(file = SEED_FILE): Blob | undefined {
  try {
    if (!existsSync(file) || readFileSync(stampOf(file), 'utf8').trim() !== journalDigest()) return undefined;
    return new Blob([readFileSync(file)]);
  } catch {
    return undefined;
  }
}

/**
 * Builds the seed: an empty in-memory cluster, every migration applied, dumped as PGlite's tar. Written
 * under a temporary name and renamed, so a start never reads half a file.
 *
 * @example
 * ```ts
 * import { buildEmbeddedSeed } from '../src/db/embedded-seed';
 *
 * const { bytes } = await buildEmbeddedSeed(); // dist/embedded-seed/cluster.tar
 * ```
 */
export async function buildEmbeddedSeed(file = SEED_FILE): Promise<{ file: string; bytes: number }> {
  const database = await openDatabase({});
  try {
    await database.migrate();
    const dump = await database.dump!();
    const bytes = Buffer.from(await dump.arrayBuffer());
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(`${file}.tmp`, bytes);
    renameSync(`${file}.tmp`, file);
    writeFileSync(stampOf(file), `${journalDigest()}\n`);
    return { file, bytes: bytes.length };
  } finally {
    await database.close();
  }
}
