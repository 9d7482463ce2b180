import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client';
import { buildEmbeddedSeed, readEmbeddedSeed } from '../src/db/embedded-seed';
import { engine } from './helpers/database';

// A first embedded start copies the cluster built at install (npm run build:seed) instead of running initdb
// and every migration: the copy must be a whole, migrated, writable database of its own, and a seed built
// from other migrations must never be used. The embedded database only: the PostgreSQL run skips it.
const dir = mkdtempSync(path.join(tmpdir(), 'demoshare-seed-'));
const seedFile = path.join(dir, 'seed', 'cluster.tar');
const journal = JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'drizzle', 'meta', '_journal.json'), 'utf8')) as {
  entries: unknown[];
};

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(engine !== 'pglite')('the embedded seed', { timeout: 120_000 }, () => {
  it('opens a fresh data directory already migrated, and each copy is a database of its own', async () => {
    await buildEmbeddedSeed(seedFile);
    const copies = [];
    for (const name of ['one', 'two']) {
      const seed = readEmbeddedSeed(seedFile);
      expect(seed).toBeInstanceOf(Blob);
      copies.push(await openDatabase({ dataDir: path.join(dir, name), loadDataDir: seed }));
    }
    try {
      for (const copy of copies) {
        const { rows } = await copy.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
        expect(rows[0]?.n).toBe(journal.entries.length);
        await copy.migrate(); // nothing left to apply
      }
      await copies[0]!.executeSql("insert into users (id, email, name, password_hash) values ('usr_seedtest', 'a@example.com', 'A', 'x')");
      const other = await copies[1]!.executeSql("select count(*)::int as n from users where id = 'usr_seedtest'");
      expect(other.rows[0]?.n).toBe(0);
    } finally {
      for (const copy of copies) await copy.close();
    }
    // Reopened from its own files, the copy keeps what was written (the seed is read once, at creation).
    const reopened = await openDatabase({ dataDir: path.join(dir, 'one') });
    try {
      const { rows } = await reopened.executeSql("select email from users where id = 'usr_seedtest'");
      expect(rows).toEqual([{ email: 'a@example.com' }]);
    } finally {
      await reopened.close();
    }
  });

  it('is not used when it was built from other migrations, or is missing', () => {
    writeFileSync(`${seedFile}.journal`, 'a digest of another journal\n');
    expect(readEmbeddedSeed(seedFile)).toBeUndefined();
    expect(readEmbeddedSeed(path.join(dir, 'nowhere.tar'))).toBeUndefined();
  });
});
