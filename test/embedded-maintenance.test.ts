import { afterEach, describe, expect, it } from 'vitest';
import { partitionedParentsDue } from '../src/db/partitioned-statistics';
import { EmbeddedMaintenance, runEmbeddedMaintenance, tablesDue, walSinceCheckpoint } from '../src/db/embedded-maintenance';
import { engine } from './helpers/database';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';

// PostgreSQL has autovacuum; the maintenance runs on the embedded database only (src/runtime.ts).
describe.skipIf(engine !== 'pglite')('embedded database maintenance', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const stat = async (app: TestApp, table: string) => {
    const { rows } = await app.db.database.executeSql(
      `select c.reltuples, s.n_dead_tup, s.last_vacuum, s.last_analyze, pg_relation_size(c.oid) as bytes
       from pg_class c join pg_stat_user_tables s on s.relid = c.oid where s.schemaname = 'public' and c.relname = '${table}'`,
    );
    const row = rows[0]!;
    return { rows: Number(row.reltuples), dead: Number(row.n_dead_tup), vacuumed: row.last_vacuum, analyzed: row.last_analyze, bytes: Number(row.bytes) };
  };

  /**
   * Creates `n` demos through the API, then one kept demo, and deletes the `n`: `n` dead rows in demos, in
   * pages before a live one, so a vacuum frees their space for reuse rather than cutting the file short.
   */
  const churn = async (app: TestApp, key: string, n: number) => {
    const create = async (title: string) => {
      const res = await app.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title } });
      expect(res.statusCode).toBe(201);
      return res.json().data.id as string;
    };
    const ids: string[] = [];
    for (let i = 0; i < n; i++) ids.push(await create(`Churn ${i} ${'x'.repeat(180)}`));
    await create('Kept');
    for (const id of ids) expect((await app.app.inject({ method: 'DELETE', url: `/v1/demos/${id}`, headers: bearer(key) })).statusCode).toBe(204);
  };

  it('analyzes every table of a database nothing has analyzed, then finds nothing due until rows change', async () => {
    t = await createTestApp();
    const before = await tablesDue(t.db.database);
    // Every table, the job queue's included: none was ever analyzed.
    expect(before.length).toBeGreaterThan(30);
    expect(before.every((d) => d.vacuum && d.analyze)).toBe(true);
    expect(before.map((d) => d.table)).toEqual(expect.arrayContaining(['public.demos', 'public.views_default']));
    // Views live in monthly partitions (docs/partitioning.md): each is a table of its own here.
    expect(before.filter((d) => /^public\.views_p\d{6}$/.test(d.table)).length).toBeGreaterThanOrEqual(1);
    expect(before.some((d) => d.table.startsWith('pgboss.'))).toBe(true);

    const run = await runEmbeddedMaintenance(t.db.database);
    expect(run.tables.map((d) => d.table)).toEqual(before.map((d) => d.table));
    const { rows } = await t.db.database.executeSql(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind = 'r' and n.nspname in ('public', 'pgboss') and c.reltuples < 0`,
    );
    expect(rows[0]!.n).toBe(0);
    expect(await tablesDue(t.db.database)).toEqual([]);
    // The partitioned parents, which no per-table rule reaches, are analyzed after their partitions.
    expect(run.parents.map((p) => p.table)).toEqual(expect.arrayContaining(['public.views', 'public.view_steps']));
    expect(await partitionedParentsDue(t.db.database)).toEqual([]);
  });

  it('vacuums a table once enough rows died in it, so the next rows reuse their space instead of growing the file', async () => {
    t = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 100_000 } });
    const key = await t.apiKey('all');
    await runEmbeddedMaintenance(t.db.database);

    await churn(t, key, 150);
    const due = await tablesDue(t.db.database);
    // 150 dead rows in a table of none: past autovacuum's 50 + 20 %.
    expect(due.find((d) => d.table === 'public.demos')).toEqual({ table: 'public.demos', vacuum: true, analyze: true });
    const dirty = await stat(t, 'demos');
    expect(dirty.dead).toBeGreaterThanOrEqual(150);

    await runEmbeddedMaintenance(t.db.database);
    const clean = await stat(t, 'demos');
    expect(clean.dead).toBe(0);
    expect(clean.vacuumed).not.toBeNull();

    // The same churn again fills the space the first one left: the table does not grow (but for a page
    // the second kept row may open). Without the vacuum it takes as many pages again.
    expect(clean.bytes).toBeGreaterThan(8192 * 5);
    await churn(t, key, 150);
    const again = await stat(t, 'demos');
    expect(again.bytes).toBeLessThanOrEqual(clean.bytes + 8192);
  });

  it('the planner learns a table’s size from the analyze', async () => {
    t = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 100_000 } });
    const key = await t.apiKey('all');
    for (let i = 0; i < 120; i++) {
      expect((await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: `Kept ${i}` } })).statusCode).toBe(201);
    }
    expect((await stat(t, 'demos')).rows).toBe(-1);
    await runEmbeddedMaintenance(t.db.database);
    expect((await stat(t, 'demos')).rows).toBe(120);
  });

  it('checkpoints once enough WAL was written since the last checkpoint, and not before', async () => {
    t = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 100_000 } });
    const key = await t.apiKey('all');
    const db = t.db.database;
    const lastCheckpoint = async () => String((await db.executeSql('select redo_lsn::text as lsn from pg_control_checkpoint()')).rows[0]!.lsn);
    // What a checkpoint keeps of old WAL for reuse: 128 MB, not PostgreSQL's 1 GB (src/db/client.ts).
    expect((await db.executeSql(`select current_setting('max_wal_size') as v`)).rows[0]!.v).toBe('128MB');
    await runEmbeddedMaintenance(db, { checkpointWalBytes: 1 });
    const first = await lastCheckpoint();
    expect(await walSinceCheckpoint(db)).toBeLessThan(64 * 1024);

    for (let i = 0; i < 40; i++) {
      expect((await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: `WAL ${i} ${'w'.repeat(150)}` } })).statusCode).toBe(201);
    }
    const written = await walSinceCheckpoint(db);
    expect(written).toBeGreaterThan(40 * 200);
    // Under the threshold: no checkpoint, the WAL stays to be replayed.
    const below = await runEmbeddedMaintenance(db, { checkpointWalBytes: written * 100 });
    expect(below.checkpoint).toBeUndefined();
    expect(await lastCheckpoint()).toBe(first);
    // Past it: checkpointed, and what a crash would replay is back near nothing.
    const past = await runEmbeddedMaintenance(db, { checkpointWalBytes: written });
    expect(past.checkpoint?.walBytes).toBeGreaterThanOrEqual(written);
    expect(await lastCheckpoint()).not.toBe(first);
    expect(await walSinceCheckpoint(db)).toBeLessThan(written);
  });

  it('runs a pass at start and then every interval, and stop waits for the pass under way', async () => {
    t = await createTestApp();
    const passes: Array<{ tables: number }> = [];
    const warnings: unknown[] = [];
    const log = { info: (fields: { tables: number }) => passes.push(fields), warn: (fields: unknown) => warnings.push(fields) };
    const maintenance = new EmbeddedMaintenance(t.db.database, 20, log as never);
    maintenance.start();
    await maintenance.stop();
    // stop() returned only after the first pass (every table of a fresh database) was done.
    expect(passes).toHaveLength(1);
    expect(passes[0]!.tables).toBeGreaterThan(30);
    expect(await tablesDue(t.db.database)).toEqual([]);

    const again = new EmbeddedMaintenance(t.db.database, 20, log as never);
    const key = await t.apiKey('all');
    again.start();
    // Rows written while it runs are picked up by a later pass, not by the first (which found nothing).
    for (let i = 0; i < 80; i++) await t.app.inject({ method: 'POST', url: '/v1/demos', headers: bearer(key), payload: { title: `Later ${i}` } });
    for (let i = 0; i < 100 && !passes.slice(1).some((p) => p.tables > 0); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    await again.stop();
    expect(passes.length).toBeGreaterThan(1);
    const count = passes.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(passes).toHaveLength(count);
    expect(warnings).toEqual([]);
  });
});
