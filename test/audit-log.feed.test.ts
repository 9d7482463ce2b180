import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { systemActor } from '../src/audit/actor';
import { entriesAfter, feedPosition } from '../src/audit/audit-feed.repo';
import { recordAudit } from '../src/audit/audit-recorder';
import { engine, TEST_DATABASE_URL } from './helpers/database';
import { bearer, createTestApp, type TestApp, type TestSession } from './helpers/test-app';

interface Page {
  data: Array<{ id: string; action: string; target: { id: string | null } }>;
  meta: { total: number; page: number; per_page: number; next: string };
}

describe('audit log feed: GET /v1/audit-log?after= (what a SIEM polls)', () => {
  let t: TestApp;
  let admin: TestSession;
  let key: string;

  const poll = async (after: string, perPage = 7): Promise<Page> => {
    const res = await t.app.inject({ method: 'GET', url: `/v1/audit-log?after=${after}&per_page=${perPage}`, headers: bearer(key) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  /** Polls from `cursor` until a page comes back empty; every entry seen, and the cursor to go on from. */
  async function drain(cursor: string, perPage = 7): Promise<{ ids: string[]; cursor: string }> {
    const ids: string[] = [];
    for (;;) {
      const page = await poll(cursor, perPage);
      ids.push(...page.data.map((e) => e.id));
      if (page.data.length === 0) {
        expect(page.meta.next).toBe(cursor);
        return { ids, cursor };
      }
      expect(page.meta.next).toBe(page.data.at(-1)!.id);
      cursor = page.meta.next;
    }
  }

  /** Every entry of the workspace, in the feed's order, read from the table itself. */
  const stored = async () =>
    (await t.db.database.executeSql('select id from audit_log where workspace_id = $1 order by tx_id, id', [admin.workspaceId])).rows.map((r) =>
      String(r.id),
    );

  const createKey = async (name: string) => {
    const res = await admin.inject({ method: 'POST', url: '/v1/api-keys', payload: { name, scopes: ['demos:read'] } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };

  /**
   * A transaction that writes one entry (minting its id and taking its transaction id first), then holds its
   * commit back until `release`; `wrote` resolves once the entry is written.
   */
  function slowTransaction(label: string) {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => {
      written = resolve;
    });
    const slow = t.ctx.database.db.transaction(async (tx) => {
      await recordAudit(tx, t.ctx.clock, systemActor(), {
        workspaceId: admin.workspaceId,
        action: 'data.erased',
        target: { type: 'viewer', id: null, label },
      });
      written();
      await gate;
    });
    return { wrote, release, slow };
  }

  beforeAll(async () => {
    // The poller of the concurrency test polls every 20 ms, past the default budget of a key.
    t = await createTestApp({ config: { RATE_LIMIT_PER_MINUTE: 1_000_000 } });
    admin = await t.signUp();
    key = await t.apiKey(['audit:read'], admin);
  });
  afterAll(() => t?.close());

  it('walks the whole log oldest first from after=start, with the cursor in meta.next and what is left in total', async () => {
    for (let i = 0; i < 9; i++) await createKey(`backlog ${i}`);
    const first = await poll('start', 4);
    expect(first.meta).toMatchObject({ page: 1, per_page: 4 });
    const all = await stored();
    expect(first.meta.total).toBe(all.length);
    expect(first.data.map((e) => e.id)).toEqual(all.slice(0, 4));
    const second = await poll(first.meta.next, 4);
    expect(second.meta.total).toBe(all.length - 4);
    expect(second.data.map((e) => e.id)).toEqual(all.slice(4, 8));
    const { ids } = await drain('start', 4);
    expect(ids).toEqual(all);
  });

  it('hands every entry written between and during polls over exactly once, with concurrent writers', async () => {
    let { ids: seen, cursor } = await drain('start');
    const made: string[] = [];
    let writing = true;
    // Four writers at once, each making keys one after another, while a poller keeps polling.
    const writers = Promise.all(
      Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; i < 6; i++) made.push(await createKey(`writer ${w}.${i}`));
      }),
    ).finally(() => {
      writing = false;
    });
    let polls = 0;
    while (writing) {
      const page = await poll(cursor, 3);
      seen.push(...page.data.map((e) => e.id));
      cursor = page.meta.next;
      polls++;
      // A pause between polls, as a SIEM's schedule has: on PGlite's one connection a poller that never
      // paused would keep the writers' transactions waiting.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await writers;
    const rest = await drain(cursor, 3);
    seen = [...seen, ...rest.ids];
    expect(polls).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(await stored());
    // Each key made is in the feed once, as its key.created entry.
    const created = await t.db.database.executeSql(`select id from audit_log where action = 'key.created' and target_id = any($1::text[])`, [made]);
    expect(created.rows).toHaveLength(24);
    for (const row of created.rows) expect(seen).toContain(String(row.id));
  });

  it('answers a bad feed request with a 400 naming the parameter, and nothing else', async () => {
    const stranger = await t.signUp();
    const theirs = (await stranger.inject({ method: 'GET', url: '/v1/audit-log?per_page=1' })).json().data[0].id as string;
    const cases: Array<[string, string]> = [
      [`after=${theirs}`, 'after'],
      ['after=aud_01jd3k7q9x8v2m4n6p0r5s7t9w', 'after'],
      ['after=usr_01jd3k7q9x8v2m4n6p0r5s7t9w', 'after'],
      ['after=latest', 'after'],
      ['after=', 'after'],
      ['after=start&page=2', 'page'],
      ['after=start&per_page=101', 'per_page'],
    ];
    for (const [query, field] of cases) {
      const res = await t.app.inject({ method: 'GET', url: `/v1/audit-log?${query}`, headers: bearer(key) });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.code).toBe('invalid_request');
      expect(
        res.json().error.details.map((d: { field: string }) => d.field),
        query,
      ).toContain(field);
    }
    // The pages of the web app are as they were: newest first, no cursor.
    const newest = (await admin.inject({ method: 'GET', url: '/v1/audit-log?per_page=2' })).json();
    expect(newest.meta.next).toBeUndefined();
    // Newest by the time written (entries of one transaction share it, and concurrent ones may commit in
    // another order than their ids): not the feed's commit order.
    const byTime = await t.db.database.executeSql('select id from audit_log where workspace_id = $1 order by created_at desc, id desc limit 2', [admin.workspaceId]);
    expect(newest.data.map((e: { id: string }) => e.id)).toEqual(byTime.rows.map((r) => String(r.id)));
  });

  // Transaction ids are the server's, not the database's: an open transaction of another database (another
  // application, a pg_dump) writes nothing here and must not hold the feed back.
  it.skipIf(engine !== 'postgres')('is not held back by a transaction left open in another database of the server', async () => {
    const { cursor } = await drain('start');
    const elsewhere = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await elsewhere.connect();
    try {
      await elsewhere.query('begin');
      await elsewhere.query('select pg_current_xact_id()');
      const id = await createKey('while another database waits');
      const page = await poll(cursor);
      expect(page.data.length).toBeGreaterThan(0);
      const fed = await t.db.database.executeSql('select target_id from audit_log where id = any($1::text[])', [page.data.map((e) => e.id)]);
      expect(fed.rows.map((r) => r.target_id)).toContain(id);
    } finally {
      await elsewhere.query('rollback').catch(() => {});
      await elsewhere.end();
    }
  });

  // PGlite has one connection: a transaction held open there holds every other query too.
  it.skipIf(engine !== 'postgres')('never steps past an entry whose transaction commits after a later one', async () => {
    const { cursor } = await drain('start');
    const { wrote, release, slow } = slowTransaction('slow transaction');
    let later: string;
    let during: Page;
    try {
      await wrote;
      later = await createKey('committed first');
      during = await poll(cursor);
    } finally {
      release();
      await slow;
    }
    // The later entry waited: by id it comes after the slow one, and serving it then would have moved the
    // cursor past the slow one for good.
    expect(during.data).toEqual([]);
    expect(during.meta.next).toBe(cursor);
    const after = await drain(during.meta.next);
    expect(after.ids).toHaveLength(2);
    const fed = await t.db.database.executeSql('select target_id, target_label from audit_log where id = any($1::text[])', [after.ids]);
    expect(fed.rows.some((r) => r.target_label === 'slow transaction')).toBe(true);
    expect(fed.rows.some((r) => r.target_id === later)).toBe(true);
  });

  // The race CI found once: a transaction of this database still running when the feed's statement took its
  // snapshot, and committed before the statement read pg_stat_activity. Its entries are invisible to the
  // statement, and its backend no longer shows its id; a horizon built only from ids a backend of this
  // database was seen holding jumped past it. A repeatable-read transaction pins the snapshot at its first
  // statement while pg_stat_activity is read at its first use, so the commit lands between the two every time.
  it.skipIf(engine !== 'postgres')('never passes a transaction that commits between the snapshot and the read of pg_stat_activity', async () => {
    const { cursor } = await drain('start');
    const position = (await feedPosition(t.ctx.database.db, admin.workspaceId, cursor)) ?? null;
    const { wrote, release, slow } = slowTransaction('commits mid-statement');
    let served: string[] = [];
    try {
      await wrote;
      // Committed, with a transaction id above the slow one's.
      await createKey('committed before the snapshot');
      served = await t.ctx.database.db.transaction(
        async (tx) => {
          await tx.execute(sql`select 1`);
          release();
          await slow;
          const page = await entriesAfter(tx, admin.workspaceId, {}, position, 10);
          return page.rows.map((r) => r.id);
        },
        { isolationLevel: 'repeatable read' },
      );
    } finally {
      release();
      await slow;
    }
    // Serving the later entry would have moved the cursor past the slow one, which this snapshot cannot see.
    expect(served).toEqual([]);
    const after = await drain(cursor);
    expect(after.ids).toHaveLength(2);
  });
});

if (engine !== 'postgres') console.warn('audit-log.feed.test.ts: the late-commit case runs on PostgreSQL only (set TEST_DATABASE_URL)');
