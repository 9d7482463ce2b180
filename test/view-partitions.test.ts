// Views and view_steps partitioned by month (docs/partitioning.md), on the engine the suite runs on: the
// migration of a database holding views, the job that makes partitions ahead, the DEFAULT partition, the
// retention dropping whole months, and one view per session when two batches race (PostgreSQL only).
import { randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../src/core/clock';
import { type Database, openDatabase } from '../src/db/client';
import { applyViewRetention } from '../src/viewer-privacy/view-retention';
import { claimAndOpenViews } from '../src/viewing/ingest.repo';
import { partitionedParentsDue } from '../src/db/partitioned-statistics';
import { ensureViewPartitions, viewPartitionsPass } from '../src/viewing/view-partitions.jobs';
import { engine, TEST_DATABASE_URL } from './helpers/database';
import { createShare, demoWithSteps, playView } from './helpers/shares';
import { createTestApp, type TestApp } from './helpers/test-app';

const DAY = 86_400_000;
const rowsOf = async (database: Database, text: string, values: unknown[] = []) =>
  (await database.executeSql(text, values)).rows as Array<Record<string, unknown>>;
const partitionsOf = async (database: Database, table: string) =>
  (
    await rowsOf(
      database,
      `select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid where i.inhparent = $1::regclass order by 1`,
      [table],
    )
  ).map((r) => r.name as string);

/** A fresh database of the suite's engine, migrated up to and including `last` (a journal tag's number). */
async function databaseAt(last: number): Promise<{ database: Database; drop(): Promise<void> }> {
  const folder = await mkdtemp(path.join(tmpdir(), 'ds-migrations-'));
  await cp(path.resolve('drizzle'), folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: Array<{ idx: number }> };
  journal.entries = journal.entries.filter((e) => e.idx <= last);
  await writeFile(journalFile, JSON.stringify(journal));
  let url: string | undefined;
  let name: string | undefined;
  if (TEST_DATABASE_URL) {
    name = `ds_part_${Date.now().toString(36)}_${randomUUID().slice(0, 8)}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const parsed = new URL(TEST_DATABASE_URL);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  }
  const database = await openDatabase(url ? { url, poolSize: 3 } : {});
  // biome-ignore lint/suspicious/noExplicitAny: either engine's drizzle instance, as the client's migrate() passes it.
  const db = database.db as any;
  await (database.kind === 'pglite' ? migratePglite(db, { migrationsFolder: folder }) : migratePg(db, { migrationsFolder: folder }));
  await rm(folder, { recursive: true, force: true });
  return {
    database,
    async drop() {
      await database.close().catch(() => {});
      if (name && TEST_DATABASE_URL) {
        const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      }
    },
  };
}

describe(`views partitioned by month (${engine})`, () => {
  it('the migration moves existing views and step rows into monthly partitions: counts equal, keys and links kept', async () => {
    const { database, drop } = await databaseAt(44);
    try {
      const exec = (text: string, values: unknown[] = []) => database.executeSql(text, values);
      await exec(`insert into workspaces (id, name) values ('ws_1', 'W')`);
      await exec(`insert into demos (id, workspace_id, title, status) values ('demo_1', 'ws_1', 'D', 'published')`);
      await exec(`insert into shares (id, workspace_id, demo_id, token) values ('shr_1', 'ws_1', 'demo_1', 'tok')`);
      // 300 views over three months of 2025 and one now: sessions for the recent ones, steps for all.
      await exec(`
        insert into viewer_sessions (id, share_id, demo_id, workspace_id, expires_at)
        select 'vs_' || n, 'shr_1', 'demo_1', 'ws_1', now() + interval '1 day' from generate_series(1, 100) n`);
      await exec(`
        insert into views (id, workspace_id, demo_id, share_id, session_id, started_at, last_activity_at, steps_viewed)
        select 'view_' || n, 'ws_1', 'demo_1', 'shr_1', case when n <= 100 then 'vs_' || n end,
          case when n <= 100 then now() - interval '1 hour' else timestamptz '2025-01-01 00:00:00+00' + (n % 3) * interval '1 month' + interval '1 hour' end,
          now(), '{1,2}'
        from generate_series(1, 300) n`);
      await exec(`
        insert into view_steps (view_id, step_number, seconds, first_reached_at)
        select 'view_' || n, s, 2.5, now() from generate_series(1, 300) n, generate_series(1, 2) s`);
      await exec(`
        insert into leads (id, workspace_id, demo_id, view_id, session_id, step_number, step_id, client_id)
        values ('lead_1', 'ws_1', 'demo_1', 'view_150', null, 1, 'step_1', gen_random_uuid())`);

      await database.migrate();

      const [counts] = await rowsOf(
        database,
        `select (select count(*)::int from views) as views, (select count(*)::int from view_steps) as steps,
           (select count(*)::int from only views_default) as in_default,
           (select count(*)::int from view_steps s join views v on v.id = s.view_id and v.started_at = s.view_started_at) as joined,
           (select count(*)::int from viewer_sessions where view_id = 'view_' || substr(id, 4)) as sessions_named,
           (select view_id from leads where id = 'lead_1') as lead_view`,
      );
      expect(counts).toEqual({ views: 300, steps: 600, in_default: 0, joined: 600, sessions_named: 100, lead_view: 'view_150' });
      expect(await partitionsOf(database, 'views')).toEqual(expect.arrayContaining(['views_default', 'views_p202501', 'views_p202502', 'views_p202503']));
      const [placed] = await rowsOf(database, `select tableoid::regclass::text as part from views where id = 'view_101'`);
      // view_101: 101 % 3 = 2 months after January 2025.
      expect(placed!.part).toBe('views_p202503');
      // From this month on, two months ahead: a partition each, for both tables.
      const now = new Date();
      for (let offset = 0; offset <= 2; offset++) {
        const m = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
        const suffix = `${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
        expect(await partitionsOf(database, 'view_steps')).toContain(`view_steps_p${suffix}`);
      }
      // The composite foreign key still cascades.
      await exec(`delete from views where id = 'view_200'`);
      expect((await rowsOf(database, `select count(*)::int as n from view_steps where view_id = 'view_200'`))[0]!.n).toBe(0);
    } finally {
      await drop();
    }
  });

  it('the job analyzes the partitioned parents, which autovacuum never does, once their partitions\' rows drift from what they counted', async () => {
    const { database, drop } = await databaseAt(9999);
    try {
      const exec = (text: string) => database.executeSql(text);
      const clock = manualClock(new Date());
      const counted = async () =>
        Object.fromEntries(
          (await rowsOf(database, `select relname, reltuples::int as n from pg_class where relname in ('views', 'view_steps')`)).map((r) => [r.relname, r.n]),
        );
      // A database fresh from its migrations: neither parent was ever analyzed (-1).
      expect(await counted()).toEqual({ views: -1, view_steps: -1 });
      expect((await viewPartitionsPass({ database, clock })).analyzed).toEqual(expect.arrayContaining(['public.views', 'public.view_steps']));
      expect(await counted()).toEqual({ views: 0, view_steps: 0 });
      expect((await partitionedParentsDue(database)).map((d) => d.table)).not.toContain('public.views');

      await exec(`insert into workspaces (id, name) values ('ws_1', 'W')`);
      await exec(`insert into demos (id, workspace_id, title, status) values ('demo_1', 'ws_1', 'D', 'published')`);
      await exec(`insert into shares (id, workspace_id, demo_id, token) values ('shr_1', 'ws_1', 'demo_1', 'tok')`);
      await exec(`
        insert into views (id, workspace_id, demo_id, share_id, started_at, last_activity_at, steps_viewed)
        select 'view_' || n, 'ws_1', 'demo_1', 'shr_1', now() - (n % 20) * interval '1 minute', now(), '{1}' from generate_series(1, 2000) n`);
      // The partitions' own analyze (autovacuum's on PostgreSQL, the embedded upkeep's on PGlite) counts their rows.
      for (const part of await partitionsOf(database, 'views')) await exec(`analyze ${part}`);
      expect((await partitionedParentsDue(database)).map((d) => [d.table, d.counted, d.partitionRows])).toEqual([['public.views', 0, 2000]]);
      expect((await viewPartitionsPass({ database, clock })).analyzed).toEqual(['public.views']);
      expect(await counted()).toEqual({ views: 2000, view_steps: 0 });

      // 5 % more rows is within the threshold (50 + 10 %): nothing to do; the pass stays cheap.
      await exec(`
        insert into views (id, workspace_id, demo_id, share_id, started_at, last_activity_at, steps_viewed)
        select 'view_more_' || n, 'ws_1', 'demo_1', 'shr_1', now(), now(), '{1}' from generate_series(1, 100) n`);
      for (const part of await partitionsOf(database, 'views')) await exec(`analyze ${part}`);
      expect((await viewPartitionsPass({ database, clock })).analyzed).toEqual([]);
    } finally {
      await drop();
    }
  });

  describe('on a running app', () => {
    let t: TestApp;
    let key: string;
    let demo: string;
    let token: string;
    // A month far from today's, which no migration made a partition for.
    const clock = manualClock(new Date('2031-05-10T12:00:00.000Z'));
    const db = () => t.ctx.database;

    beforeAll(async () => {
      t = await createTestApp({ clock, config: { VIEW_RETENTION: 90 * DAY, VIEWER_RATE_LIMIT_PER_MINUTE: 1_000_000, RATE_LIMIT_PER_MINUTE: 1_000_000 } });
      const admin = await t.signUp();
      key = await t.apiKey('all', admin);
      demo = await demoWithSteps(t, key, 3);
      token = (await createShare(t, key, demo)).token;
    });
    afterAll(async () => {
      await t?.close();
    });

    it('a view of a month without a partition lands in the DEFAULT partition, and the job moves it into its own', async () => {
      await playView(t, token, { email: 'ana@globex.com', reached: 3, complete: true });
      const where = async () =>
        rowsOf(db(), `select tableoid::regclass::text as part, id, started_at from views where demo_id = $1`, [demo]);
      const before = await where();
      expect(before.map((r) => r.part)).toEqual(['views_default']);
      const steps = await rowsOf(db(), `select tableoid::regclass::text as part from view_steps where view_id = $1`, [before[0]!.id]);
      expect(steps.map((r) => r.part)).toEqual(['view_steps_default', 'view_steps_default', 'view_steps_default']);

      const made = await ensureViewPartitions(t.ctx);
      expect(made).toEqual(['views_p203105', 'views_p203106', 'views_p203107']);
      // Idempotent: a second run makes nothing.
      expect(await ensureViewPartitions(t.ctx)).toEqual([]);
      expect(await partitionsOf(db(), 'views')).toEqual(expect.arrayContaining(['views_p203105', 'views_p203106', 'views_p203107']));

      const after = await where();
      expect(after).toEqual([{ ...before[0], part: 'views_p203105' }]);
      const movedSteps = await rowsOf(db(), `select tableoid::regclass::text as part, seconds from view_steps where view_id = $1 order by step_number`, [after[0]!.id]);
      expect(movedSteps.map((r) => r.part)).toEqual(['view_steps_p203105', 'view_steps_p203105', 'view_steps_p203105']);
      // The analytics read the same view from its new place.
      const res = await t.app.inject({ method: 'GET', url: `/v1/demos/${demo}/analytics?start_date=2031-05-01&end_date=2031-05-31`, headers: { authorization: `Bearer ${key}` } });
      expect(res.json().data.total_views).toBe(1);
    });

    it('ingestion stays exactly-once per session: a retried batch counts nothing, a later one adds to the same view', async () => {
      const session = `vs_${randomUUID()}`;
      const [row] = await rowsOf(db(), `select id, workspace_id from shares where demo_id = $1`, [demo]);
      await db().executeSql(
        `insert into viewer_sessions (id, share_id, demo_id, workspace_id, expires_at) values ($1, $2, $3, $4, now() + interval '1 day')`,
        [session, row!.id, demo, row!.workspace_id],
      );
      const candidate = {
        id: `view_${randomUUID()}`, workspaceId: row!.workspace_id as string, demoId: demo, shareId: row!.id as string, version: 1,
        sessionId: session, viewerEmail: null, viewerName: null, anonymousId: null, referrer: null, userAgent: null, internal: false, armId: null,
      };
      const e1 = randomUUID();
      const first = await db().db.transaction((tx) => claimAndOpenViews(tx, [{ sessionId: session, eventId: e1 }], [candidate], clock.now()));
      expect(first.views.map((v) => [v.id, v.created])).toEqual([[candidate.id, true]]);
      const again = await db().db.transaction((tx) => claimAndOpenViews(tx, [{ sessionId: session, eventId: e1 }], [{ ...candidate, id: 'view_other' }], clock.now()));
      expect(again).toEqual({ fresh: new Set(), views: [] });
      const later = await db().db.transaction((tx) =>
        claimAndOpenViews(tx, [{ sessionId: session, eventId: randomUUID() }], [{ ...candidate, id: 'view_other' }], clock.now()),
      );
      expect(later.views.map((v) => [v.id, v.created])).toEqual([[candidate.id, false]]);
      const [n] = await rowsOf(db(), `select count(*)::int as n from views where session_id = $1`, [session]);
      expect(n!.n).toBe(1);
    });

    it.skipIf(engine !== 'postgres')('two batches racing to open a session\'s view make one view: the later one waits and reads it', async () => {
      const session = `vs_${randomUUID()}`;
      const [row] = await rowsOf(db(), `select id, workspace_id from shares where demo_id = $1`, [demo]);
      await db().executeSql(
        `insert into viewer_sessions (id, share_id, demo_id, workspace_id, expires_at) values ($1, $2, $3, $4, now() + interval '1 day')`,
        [session, row!.id, demo, row!.workspace_id],
      );
      const candidate = (id: string) => ({
        id, workspaceId: row!.workspace_id as string, demoId: demo, shareId: row!.id as string, version: 1,
        sessionId: session, viewerEmail: null, viewerName: null, anonymousId: null, referrer: null, userAgent: null, internal: false, armId: null,
      });
      let release!: () => void;
      const held = new Promise<void>((resolve) => { release = resolve; });
      let opened!: () => void;
      const aOpened = new Promise<void>((resolve) => { opened = resolve; });
      const a = db().db.transaction(async (tx) => {
        const result = await claimAndOpenViews(tx, [{ sessionId: session, eventId: randomUUID() }], [candidate('view_race_a')], clock.now());
        opened();
        await held;
        return result;
      });
      await aOpened;
      const b = db().db.transaction((tx) => claimAndOpenViews(tx, [{ sessionId: session, eventId: randomUUID() }], [candidate('view_race_b')], clock.now()));
      await new Promise((resolve) => setTimeout(resolve, 300));
      release();
      const [ra, rb] = await Promise.all([a, b]);
      expect(ra.views.map((v) => [v.id, v.created])).toEqual([['view_race_a', true]]);
      expect(rb.views.map((v) => [v.id, v.created])).toEqual([['view_race_a', false]]);
      const [n] = await rowsOf(db(), `select count(*)::int as n from views where session_id = $1`, [session]);
      expect(n!.n).toBe(1);
    });

    it('the retention drops a month wholly past it as tables, and deletes the rest row by row', async () => {
      // 2031-05 has views; on 2031-09-15, with 90 days kept, 2031-06-17 is the first day kept: May goes whole.
      const [lead] = await rowsOf(db(), `select id from views where demo_id = $1 limit 1`, [demo]);
      await db().executeSql(
        `insert into leads (id, workspace_id, demo_id, view_id, step_number, step_id, client_id)
         select 'lead_' || substr(md5(random()::text), 1, 8), workspace_id, demo_id, id, 1, 'step_1', gen_random_uuid() from views where id = $1`,
        [lead!.id],
      );
      const [count] = await rowsOf(db(), `select count(*)::int as n from views where demo_id = $1`, [demo]);
      clock.set(new Date('2031-09-15T04:00:00.000Z'));
      const result = await applyViewRetention(t.ctx);
      expect(result.keptFrom).toBe('2031-06-17');
      expect(result.views).toBe(count!.n);
      expect(await partitionsOf(db(), 'views')).not.toContain('views_p203105');
      expect(await partitionsOf(db(), 'view_steps')).not.toContain('view_steps_p203105');
      expect(await partitionsOf(db(), 'views')).toContain('views_p203106');
      const [left] = await rowsOf(
        db(),
        `select (select count(*)::int from views where demo_id = $1) as views,
           (select count(*)::int from leads where demo_id = $1 and view_id is not null) as linked_leads,
           (select count(*)::int from leads where demo_id = $1) as leads`,
        [demo],
      );
      expect(left).toEqual({ views: 0, linked_leads: 0, leads: 1 });
      // Nothing left to drop: a second pass deletes nothing.
      expect((await applyViewRetention(t.ctx)).views).toBe(0);
    });
  });
});

describe.skipIf(!TEST_DATABASE_URL)('the partitions and retention jobs beside readers (PostgreSQL)', () => {
  let t: TestApp;
  const clock = manualClock(new Date('2033-02-10T12:00:00.000Z'));
  /** A read of views under way, in a transaction of its own: `select` runs in it, `end` commits and closes it. */
  async function openReader(select: string) {
    const reader = new pg.Client({ connectionString: t.db.url });
    await reader.connect();
    await reader.query('begin');
    await reader.query(select);
    return {
      reader,
      async end() {
        await reader.query('commit');
        await reader.end();
      },
    };
  }
  const codeOf = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;

  beforeAll(async () => {
    t = await createTestApp({ clock, config: { VIEW_RETENTION: 90 * DAY } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gives way to a reader holding the DEFAULT partition, changing nothing, and makes the months once it is gone', async () => {
    // Its transaction holds a share lock on the DEFAULT partition, which attaching a month locks exclusively.
    const { reader, end } = await openReader('select count(*) from views_default');
    try {
      const started = Date.now();
      expect(codeOf(await ensureViewPartitions(t.ctx).catch((e: unknown) => e))).toBe('55P03');
      // Within the lock timeout and its round trips: readers are never queued behind the job for long.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await partitionsOf(t.ctx.database, 'views')).not.toContain('views_p203302');
      // The reader was not disturbed: its transaction goes on.
      expect((await reader.query('select count(*)::int as n from views')).rows[0].n).toBe(0);
    } finally {
      await end();
    }
    expect(await ensureViewPartitions(t.ctx)).toEqual(['views_p203302', 'views_p203303', 'views_p203304']);
  });

  it('the retention gives way to a reader of views too, keeping the month whole, and drops it once the reader is gone', async () => {
    // On 2033-06-15, with 90 days kept, February 2033 is wholly past: its partitions are dropped, which
    // detaches them from their parents under an exclusive lock on each.
    clock.set(new Date('2033-06-15T04:00:00.000Z'));
    const { end } = await openReader('select count(*) from views');
    try {
      const started = Date.now();
      expect(codeOf(await applyViewRetention(t.ctx).catch((e: unknown) => e))).toBe('55P03');
      expect(Date.now() - started).toBeLessThan(10_000);
      // One transaction: neither table lost its month.
      expect(await partitionsOf(t.ctx.database, 'views')).toContain('views_p203302');
      expect(await partitionsOf(t.ctx.database, 'view_steps')).toContain('view_steps_p203302');
    } finally {
      await end();
    }
    expect((await applyViewRetention(t.ctx)).keptFrom).toBe('2033-03-17');
    expect(await partitionsOf(t.ctx.database, 'views')).not.toContain('views_p203302');
    expect(await partitionsOf(t.ctx.database, 'view_steps')).not.toContain('view_steps_p203302');
  });

  it('a read made while a month’s views move out of the DEFAULT partition still finds them', async () => {
    // A view of January 2035, a month without a partition: it lands in the DEFAULT one.
    clock.set(new Date('2035-01-15T10:00:00.000Z'));
    const admin = await t.signUp();
    const key = await t.apiKey('all', admin);
    const demo = await demoWithSteps(t, key, 2);
    await playView(t, (await createShare(t, key, demo)).token, { email: 'ana@globex.com', reached: 2 });
    const read = async () => (await rowsOf(t.ctx.database, 'select tableoid::regclass::text as part from views where demo_id = $1', [demo])).map((r) => r.part);
    expect(await read()).toEqual(['views_default']);
    // The move's commit is held for 1.5 s by a deferred trigger, all its locks kept: a read sent meanwhile
    // waits for it. Attaching alone locks the parent only against other DDL, so the read was planned on the
    // partitions before the move and ran after it: the view was in neither (PostgreSQL 15, 2026-12-01).
    await t.ctx.database.executeSql(
      `create function hold_commit() returns trigger language plpgsql as $$ begin perform pg_sleep(1.5); return null; end $$`,
    );
    await t.ctx.database.executeSql(
      'create constraint trigger hold_commit after delete on views_default deferrable initially deferred for each row execute function hold_commit()',
    );
    try {
      const making = ensureViewPartitions(t.ctx);
      await new Promise((r) => setTimeout(r, 700));
      const during = await read();
      expect(await making).toContain('views_p203501');
      expect(during).toEqual(['views_p203501']);
    } finally {
      await t.ctx.database.executeSql('drop trigger if exists hold_commit on views_default');
      await t.ctx.database.executeSql('drop function if exists hold_commit()');
    }
    expect(await read()).toEqual(['views_p203501']);
  });
});
