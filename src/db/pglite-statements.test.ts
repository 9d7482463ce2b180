import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cacheStatements } from './pglite-statements';

/** The backend's own list of prepared statements: the cache's names (`ds_N`) and their texts. */
async function preparedInBackend(client: PGlite) {
  // No parameters: this statement takes PGlite's own path and is not itself prepared.
  const result = await client.query<{ name: string; statement: string }>(
    "select name, statement from pg_prepared_statements where name like 'ds\\_%' order by name",
  );
  return result.rows;
}

/**
 * A fresh cluster per test, loaded from one initdb made for the file: loading takes about a third of what
 * initdb does, and this file made eight of them.
 */
let blank: Promise<Blob> | undefined;
async function freshPglite(dataDir?: string): Promise<PGlite> {
  blank ??= (async () => {
    const first = new PGlite();
    try {
      await first.waitReady; // dumpDataDir does not wait for it
      return await first.dumpDataDir('none');
    } finally {
      await first.close();
    }
  })();
  const client = new PGlite(dataDir, { loadDataDir: await blank });
  await client.waitReady;
  return client;
}

const SCHEMA = `create table items (id int primary key, label text not null, at timestamptz not null default '2026-01-02T03:04:05Z',
  payload jsonb, tags text[], raw bytea, amount numeric)`;

// PGlite's own code, whatever the suite's database: the suite's PostgreSQL run has nothing to add here.
const onPostgres = !!process.env.TEST_DATABASE_URL;

describe.skipIf(onPostgres)('PGlite statement cache', () => {
  let client: PGlite;
  beforeEach(async () => {
    client = await freshPglite();
    cacheStatements(client, 4);
    await client.exec(SCHEMA);
  });
  afterEach(async () => {
    await client.close();
  });

  it('parses a text once and gives the results PGlite itself gives, whatever the types', async () => {
    // The same statements through PGlite's own path, on a database of its own.
    const reference = await freshPglite();
    await reference.exec(SCHEMA);
    const insert = 'insert into items (id, label, payload, tags, raw, amount) values ($1, $2, $3, $4, $5, $6) returning *';
    const values = [1, 'first', { a: [1, 2] }, ['x', 'y'], new Uint8Array([0, 255, 7]), '12.50'];
    const cached = await client.query(insert, values);
    const own = await reference.query(insert, values);
    expect(cached.rows).toEqual(own.rows);
    expect(cached.fields).toEqual(own.fields);
    expect(cached.affectedRows).toBe(1);

    const select = 'select id, label, at, payload, tags, amount from items where id = $1 and label = any($2)';
    for (let i = 0; i < 3; i++) {
      const a = await client.query(select, [1, ['first', 'other']], { rowMode: 'array' });
      const b = await reference.query(select, [1, ['first', 'other']], { rowMode: 'array' });
      expect(a.rows).toEqual(b.rows);
    }
    // A null parameter, and a statement that returns no rows.
    expect((await client.query('update items set payload = $1 where id = $2', [null, 1])).affectedRows).toBe(1);
    expect((await client.query('select payload from items where id = $1', [1])).rows).toEqual([{ payload: null }]);

    await reference.close();
    const names = await preparedInBackend(client);
    expect(names.map((row) => row.statement)).toEqual([
      insert,
      select,
      'update items set payload = $1 where id = $2',
      'select payload from items where id = $1',
    ]);
  });

  it('answers a failing statement with PostgreSQL’s error and the statement, and goes on', async () => {
    await client.query('insert into items (id, label) values ($1, $2)', [1, 'a']);
    const failure = await client.query('insert into items (id, label) values ($1, $2)', [1, 'b']).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: '23505', query: 'insert into items (id, label) values ($1, $2)', params: [1, 'b'] });
    // A text that does not parse is not kept.
    await expect(client.query('select nope from items where id = $1', [1])).rejects.toMatchObject({ code: '42703' });
    expect((await preparedInBackend(client)).map((row) => row.statement)).toEqual(['insert into items (id, label) values ($1, $2)']);
    expect((await client.query('select label from items where id = $1', [1])).rows).toEqual([{ label: 'a' }]);
  });

  it('keeps transactions whole through Drizzle: a failure rolls back the statements before it', async () => {
    const db = drizzle({ client });
    const failed = await db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into items (id, label) values (${2}, ${'kept?'})`);
        await tx.execute(sql`insert into items (id, label) values (${2}, ${'duplicate'})`);
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(Error);
    expect((await client.query('select count(*)::int as n from items where id > $1', [0])).rows).toEqual([{ n: 0 }]);
    // The statements prepared inside the rolled-back transaction outlive it (they are not transactional).
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into items (id, label) values (${3}, ${'committed'})`);
    });
    expect((await db.execute(sql`select label from items where id = ${3}`)).rows).toEqual([{ label: 'committed' }]);
  });

  it('prepares again a statement whose table changed, outside a transaction without an error', async () => {
    await client.query('insert into items (id, label) values ($1, $2)', [1, 'a']);
    const read = 'select * from items where id = $1';
    expect(Object.keys((await client.query<object>(read, [1])).rows[0]!)).not.toContain('extra');
    await client.exec('alter table items add column extra int');
    expect((await client.query<object>(read, [1])).rows[0]).toMatchObject({ id: 1, extra: null });

    // Inside a transaction the failure cannot be undone: it is PostgreSQL's error, and the next call works.
    await client.exec('alter table items add column more int');
    const inside = await client
      .transaction(async (tx) => tx.query(read, [1]))
      .catch((error: unknown) => error);
    expect(inside).toMatchObject({ code: '0A000' });
    expect((await client.query<object>(read, [1])).rows[0]).toMatchObject({ extra: null, more: null });
  });

  it('holds at most its capacity of texts, closing the least recently used in the backend', async () => {
    const texts = Array.from({ length: 6 }, (_, i) => `select $1::int + ${i} as n`);
    for (const text of texts.slice(0, 4)) await client.query(text, [1]);
    await client.query(texts[0]!, [1]); // used again: now the most recent
    await client.query(texts[4]!, [1]); // evicts texts[1]
    await client.query(texts[5]!, [1]); // closes texts[1] in the backend, evicts texts[2]
    // The last one evicted waits for the next preparation to be closed: capacity + 1 at most.
    const kept = (await preparedInBackend(client)).map((row) => row.statement);
    expect(kept.sort()).toEqual([texts[0], texts[2], texts[3], texts[4], texts[5]].sort());
    expect((await client.query(texts[1]!, [40])).rows).toEqual([{ n: 41 }]);
  });
});

describe.skipIf(onPostgres)('PGlite statement cache, installed', () => {
  it('finds the PGlite members it drives (a PGlite upgrade that moves them fails here, not in production)', async () => {
    const client = await freshPglite();
    expect(cacheStatements(client)).toBe(true);
    await client.close();
  });
});

describe.skipIf(onPostgres)('PGlite statement cache on disk', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'demoshare-statements-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a statement’s changes through to the data directory', async () => {
    const first = await freshPglite(dir);
    cacheStatements(first);
    await first.exec('create table notes (id int primary key, body text)');
    await first.query('insert into notes values ($1, $2)', [1, 'kept on disk']);
    await first.close();
    const second = new PGlite(dir);
    expect((await second.query('select body from notes')).rows).toEqual([{ body: 'kept on disk' }]);
    await second.close();
  });
});
