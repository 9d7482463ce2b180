/**
 * `npm run bench:capacity [-- --events 1000000 --demos 400 --months 12 --jobs 2 --keep]`
 *
 * The ingestion and analytics side at size, for the capacity model (docs/scaling.md#capacity-model-10-million-views-a-day):
 * a fresh PostgreSQL database (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local test server; created
 * for the run and dropped after, also on an error or Ctrl-C unless `--keep`), migrated, with one workspace of
 * `--demos` demos (five hot ones made through the API with real steps and hotspots, the long tail in SQL,
 * their share links), and `--events` viewer events over `--months` months generated in the database with
 * set-based SQL (INSERT … SELECT over generate_series, a week of one month at a time, `--jobs` at once):
 * every row the ingestion writes for them (src/viewing/ingest.repo.ts), so the analytics pages read what
 * they would read in production:
 *
 * - views (one per viewer session) and view_steps (one per step reached), in their month's partitions;
 * - the roll-ups: demo_daily_stats, demo_step_daily_stats, demo_daily_segments, demo_element_daily_stats
 *   (the hotspots used), demo_daily_viewers, demo_daily_sketches, workspace_daily_sketches, and the links'
 *   view counters;
 * - for the last 30 days only, what lives that long: viewer_sessions (VIEWER_SESSION_TTL, naming their view),
 *   ingested_events (one row per event, kept with its session) and the outbox's demo.viewed / demo.completed
 *   events (WEBHOOK_LOG_RETENTION, dispatched).
 *
 * Events are counted as the API counts them: one per event a viewer's request carries, i.e. per view one
 * `view_started`, one `step_reached` per further step, one `action_taken` per hotspot used (70 % of the
 * step changes: the others are the Next button or a key) and one `completed` when it completes.
 *
 * Then, in process through the real app (app.inject with an API key), the analytics pages (cold: the first
 * request; warm: the median of 7), EXPLAIN (ANALYZE, BUFFERS) of the slowest statements, the partition job,
 * the nightly retention pass (a day deleted row by row, then a whole month dropped), and the in-process
 * ingestion's rate on the empty database and again at size. Results: bench/results/capacity-<time>.json/.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { testConfig } from '../src/config';
import { openDatabase, type Database } from '../src/db/client';
import { applyViewRetention } from '../src/viewer-privacy/view-retention';
import { dropMonth, monthsEndingBy } from '../src/viewer-privacy/retention.repo';
import { seedViews } from '../src/viewing/seed-views';
import { cleanUpViewerData } from '../src/viewing/viewer.jobs';
import { ensureViewPartitions, viewPartitionsPass } from '../src/viewing/view-partitions.jobs';
import { monthStart } from '../src/viewing/view-partitions';
import { createMonthPartitions } from '../src/viewing/view-partitions.repo';
import { LOCAL_POSTGRES, readScriptSettings } from '../scripts/settings';
import { median, startInProcessApp } from './in-process';
import { caller, seedDemo } from './seed-demo';
import { makePng } from '../test/helpers/images';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '1000000' },
    demos: { type: 'string', default: '400' },
    months: { type: 'string', default: '12' },
    jobs: { type: 'string', default: '2' },
    'ingest-views': { type: 'string', default: '10000' },
    keep: { type: 'boolean', default: false },
  },
});
const EVENTS = Number(args.events);
const DEMOS = Number(args.demos);
const MONTHS = Number(args.months);
const JOBS = Number(args.jobs);
const INGEST_VIEWS = Number(args['ingest-views']);
if (![EVENTS, DEMOS, MONTHS, JOBS, INGEST_VIEWS].every((n) => Number.isInteger(n) && n > 0) || DEMOS < 6) {
  process.stderr.write('Usage: npm run bench:capacity -- [--events N] [--demos N>=6] [--months N] [--jobs N] [--ingest-views N] [--keep]\n');
  process.exit(2);
}
const HOT = 5;
const HOT_STEPS = [10, 12, 8, 10, 6];
const DAY = 86_400_000;
/** A view reaches its next step with this chance (geometric drop-off), and uses a hotspot for 70 % of the moves. */
const CONTINUE = 0.78;
const CLICK_PERCENT = 70;
const SESSION_DAYS = 30;
const started = performance.now();
const since = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
const say = (text: string) => process.stdout.write(`[${since()}] ${text}\n`);

const settings = readScriptSettings();
const adminUrl = settings.benchDatabaseUrl ?? settings.testDatabaseUrl ?? LOCAL_POSTGRES;
const name = `ds_bench_capacity_${randomBytes(4).toString('hex')}`;
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
say(`database ${name} created on ${url.host}`);

let dropped = false;
async function dropDatabase() {
  if (dropped || args.keep) return;
  dropped = true;
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  say(`database ${name} dropped`);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    say(`${signal}: dropping the database`);
    dropDatabase()
      .catch((error) => process.stderr.write(`could not drop ${name}: ${String(error)}\n`))
      .finally(() => process.exit(130));
  });
}

// --- statement capture: every query of the app's pool while `recording` is set (text, values, ms).
interface Statement {
  text: string;
  values: unknown[] | undefined;
  ms: number;
}
let recording: Statement[] | null = null;
const clientProto = pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown };
const originalQuery = clientProto.query;
clientProto.query = function (this: unknown, ...a: unknown[]) {
  const sink = recording;
  if (!sink) return originalQuery.apply(this, a);
  const first = a[0] as string | { text?: string; values?: unknown[] } | undefined;
  const text = typeof first === 'string' ? first : (first?.text ?? '');
  const values = Array.isArray(a[1]) ? (a[1] as unknown[]) : typeof first === 'object' ? first?.values : undefined;
  const t0 = performance.now();
  const done = () => sink.push({ text, values, ms: performance.now() - t0 });
  const cb = a.findIndex((x) => typeof x === 'function');
  if (cb >= 0) {
    const inner = a[cb] as (...r: unknown[]) => unknown;
    a[cb] = (...r: unknown[]) => {
      done();
      return inner(...r);
    };
    return originalQuery.apply(this, a);
  }
  const result = originalQuery.apply(this, a) as Promise<unknown> | undefined;
  result?.then?.(done, done);
  return result;
};

const results: Record<string, unknown> = {
  startedAt: new Date().toISOString(),
  options: { events: EVENTS, demos: DEMOS, months: MONTHS, jobs: JOBS, ingestViews: INGEST_VIEWS },
  loadAverageAtStart: loadavg(),
  cores: cpus().length,
  node: process.version,
};

let database: Database | undefined;
let exitCode = 0;
try {
  database = await openDatabase({ url: url.toString(), poolSize: 10 });
  const { app, close } = await startInProcessApp(database);
  const db = database;
  const q = async <T = Record<string, unknown>>(text: string, values?: unknown[]) => (await db.executeSql(text, values)).rows as T[];
  const [server] = await q<{ server_version: string; shared_buffers: string }>(
    `select current_setting('server_version') as server_version, current_setting('shared_buffers') as shared_buffers`,
  );
  results.postgres = { version: server!.server_version, sharedBuffers: server!.shared_buffers };
  await ensureViewPartitions({ database: db, clock: { now: () => new Date() } });

  // --- a separate workspace whose one demo measures the ingestion (its rows never meet the generated ones)
  const probe = await seedDemo(app, ['demos:read', 'demos:write', 'analytics:read'], 8);
  await probe.call('PATCH', `/v1/demos/${probe.demo.id}`, { status: 'published' }, probe.auth);

  // --- the workspace: five hot demos through the API (steps, two hotspots each, published), the long tail in SQL
  const main = await seedDemo(app, ['demos:read', 'demos:write', 'analytics:read'], HOT_STEPS[0]);
  const call = caller(app);
  const auth = main.auth;
  const hotIds = [main.demo.id];
  for (let h = 1; h < HOT; h++) {
    const demo = (await call('POST', '/v1/demos', { title: `Hot demo ${h + 1}`, source_url: 'https://example.com' }, auth)).json().data as { id: string };
    for (let s = 0; s < HOT_STEPS[h]!; s++) {
      const step = (
        await app.inject({ method: 'POST', url: `/v1/demos/${demo.id}/steps`, headers: { ...auth, 'content-type': 'image/png' }, payload: makePng(64, 40) })
      ).json().data as { id: string };
      for (let k = 0; k < 2; k++) {
        await call('POST', `/v1/demos/${demo.id}/steps/${step.id}/hotspots`, { x: 0.1 + k * 0.4, y: 0.2, width: 0.3, height: 0.1, label: 'Next' }, auth);
      }
    }
    hotIds.push(demo.id);
  }
  for (const id of hotIds) await call('PATCH', `/v1/demos/${id}`, { status: 'published' }, auth);
  const workspaceId = (await q<{ workspace_id: string }>('select workspace_id from demos where id = $1', [hotIds[0]]))[0]!.workspace_id;
  await q(
    `insert into demos (id, workspace_id, title, status)
     select 'demo_' || lpad((to_hex(i)), 26, '0'), $1, 'Demo ' || i, 'published' from generate_series(${HOT + 1}, ${DEMOS}) i`,
    [workspaceId],
  );
  // cap_demos: index (0: the hottest) → demo, steps, links. Demo i gets a share of the views ∝ the gap
  // between (i/n)^(1/3) and ((i+1)/n)^(1/3): 13 % for the first, a long tail after the first handful.
  await q(`create table cap_demos (idx int primary key, demo_id text not null, steps int not null, shares text[])`);
  await q(`insert into cap_demos select i - 1, id, steps, null from unnest($1::text[], $2::int[]) with ordinality as h(id, steps, i)`, [
    hotIds,
    HOT_STEPS,
  ]);
  await q(
    `insert into cap_demos select i - 1, 'demo_' || lpad((to_hex(i)), 26, '0'), 4 + i % 9, null from generate_series(${HOT + 1}, ${DEMOS}) i`,
  );
  // Links: 25 per hot demo (one per prospect), 1 to 3 for the others.
  await q(
    `insert into shares (id, workspace_id, demo_id, token, name)
     select 'shr_' || lpad((to_hex(d.idx * 100 + k)), 26, '0'), $1, d.demo_id, encode(sha256(('t' || d.idx || '-' || k)::bytea), 'hex'), 'Link ' || k
     from cap_demos d, generate_series(1, case when d.idx < ${HOT} then 25 else 1 + d.idx % 3 end) k`,
    [workspaceId],
  );
  await q(`update cap_demos d set shares = (select array_agg(s.id order by s.id) from shares s where s.demo_id = d.demo_id)`);
  // The element a view uses to leave each step: a hot demo's first hotspot there, a made-up id elsewhere.
  await q(`create table cap_elements (demo_id text, step_number int, element_id text, primary key (demo_id, step_number))`);
  await q(`
    insert into cap_elements
    select distinct on (s.demo_id, s.position) s.demo_id, s.position, h.id
    from steps s join hotspots h on h.step_id = s.id where s.demo_id = any($1::text[]) order by s.demo_id, s.position, h.id`, [hotIds]);
  await q(`
    insert into cap_elements
    select d.demo_id, s, 'hs_' || lpad((to_hex(d.idx * 100 + s)), 26, '0') from cap_demos d, generate_series(1, d.steps) s
    where d.idx >= ${HOT}`);
  say(`workspace: ${DEMOS} demos (${HOT} hot, made through the API), ${(await q<{ n: number }>('select count(*)::int as n from shares where workspace_id = $1', [workspaceId]))[0]!.n} links`);

  // --- ingestion on the empty database: the real batched ingestion (seed-views.ts), in process
  const ingestRate = async (label: string) => {
    const [before] = await q<{ n: number }>('select count(*)::int as n from ingested_events');
    const t0 = performance.now();
    await seedViews(db, { demoId: probe.demo.id, views: INGEST_VIEWS, days: 1, seed: label.length });
    const s = (performance.now() - t0) / 1000;
    const [after] = await q<{ n: number }>('select count(*)::int as n from ingested_events');
    const events = after!.n - before!.n;
    const figure = { views: INGEST_VIEWS, events, seconds: s, viewsPerSecond: INGEST_VIEWS / s, eventsPerSecond: events / s, loadAverage: loadavg()[0] };
    say(`ingestion ${label}: ${INGEST_VIEWS} views, ${events} events in ${s.toFixed(1)} s: ${Math.round(figure.eventsPerSecond)} events/s`);
    return figure;
  };
  const ingestEmpty = await ingestRate('empty');

  // --- the months' partitions, as an instance running all along would have made them
  const now = new Date();
  const firstMonth = monthStart(now, -(MONTHS - 1));
  for (let m = 0; m < MONTHS; m++) await createMonthPartitions(db, monthStart(now, m - (MONTHS - 1)), monthStart(now, m - (MONTHS - 2)));
  await ensureViewPartitions({ database: db, clock: { now: () => now } });

  // --- the generation plan: slices of at most 7 days, never past now; views per slice ∝ days × the month's
  // weight (the traffic grows by 15 % of the first month's each month)
  interface Slice {
    from: Date;
    to: Date;
    weight: number;
  }
  const slices: Slice[] = [];
  for (let m = 0; m < MONTHS; m++) {
    const start = monthStart(now, m - (MONTHS - 1));
    const end = new Date(Math.min(monthStart(now, m - (MONTHS - 2)).getTime(), now.getTime()));
    for (let from = start.getTime(); from < end.getTime(); from += 7 * DAY) {
      const to = Math.min(from + 7 * DAY, end.getTime());
      slices.push({ from: new Date(from), to: new Date(to), weight: ((to - from) / DAY) * (1 + 0.15 * m) });
    }
  }
  // The recent slices first: they carry the sessions, event ids and outbox rows and are the costliest.
  slices.reverse();
  const totalWeight = slices.reduce((a, s) => a + s.weight, 0);
  const sessionFrom = new Date(now.getTime() - SESSION_DAYS * DAY);
  let eventsPerView = 6.4; // the model's expectation; refined from what the slices made
  let generatedViews = 0;
  let generatedEvents = 0;
  /** Events made plus those of the slices in flight, at the rate expected when they were planned. */
  let plannedEvents = 0;
  let weightDone = 0;
  let nextN = 1;
  const genStarted = performance.now();
  const tableSeconds: Record<string, number> = {};

  async function generate(client: pg.Client, slice: Slice, first: number, count: number) {
    const g = async (label: string, text: string, values: unknown[] = []) => {
      const t0 = performance.now();
      const r = await client.query(text, values);
      tableSeconds[label] = (tableSeconds[label] ?? 0) + (performance.now() - t0) / 1000;
      return r;
    };
    const recent = slice.to > sessionFrom;
    // One row per view of the slice, every random draw made once: the tables below are all derived from it.
    await g(
      'plan (temp table)',
      `create temp table cap_v on commit preserve rows as
      with base as (
        select n, random() as r_demo, random() as r_time, random() as r_steps, random() as r_done, random() as r_who,
          random() as r_share, random() as r_int, random() as r_speed, random() as r_ref
        from generate_series($1::bigint, $2::bigint) n
      ),
      picked as (
        select b.*, d.demo_id, d.steps as step_count, d.shares,
          least(d.steps, 1 + floor(ln(1 - b.r_steps) / ln(${CONTINUE}))::int) as k,
          $3::timestamptz + (b.r_time * ($4::timestamptz - $3::timestamptz)) as started_at,
          floor(${Math.max(1, Math.round(EVENTS / 20))} * b.r_who * b.r_who)::bigint as vno
        from base b join cap_demos d on d.idx = least(${DEMOS - 1}, floor(${DEMOS} * b.r_demo ^ 3)::int)
      ),
      who as (
        select p.*, p.k = p.step_count and p.r_done < 0.9 as completed, p.r_int < 0.02 as internal,
          case when (hashint8(p.vno) & 2147483647) % 10 < 4 then
            (array['ana','ben','chloe','dev','emma','farid','grace','hugo','ines','jon','kai','lena'])[(1 + p.vno % 12)::int] || '.' || p.vno || '@' ||
            case when p.vno % 4 = 0 then (array['gmail.com','outlook.com','yahoo.com','icloud.com'])[(1 + (p.vno / 4) % 4)::int]
              else 'company-' || (1 + p.vno % 400) || '.example' end
          end as email,
          0.5 + 1.5 * p.r_speed as speed
        from picked p
      )
      select w.n, 'view_' || lpad((to_hex(w.n)), 26, '0') as id, w.demo_id, w.step_count, w.k, w.completed, w.internal,
        w.email, case when w.email is not null then initcap(split_part(w.email, '.', 1)) || ' ' || w.vno end as viewer_name,
        case when w.email like '%@%' then split_part(w.email, '@', 2) end as company,
        substr(md5('a' || w.n), 1, 16) as anonymous_id,
        w.shares[1 + floor(cardinality(w.shares) * w.r_share ^ 1.5)::int] as share_id,
        w.started_at, w.speed,
        case when w.started_at > $5::timestamptz then encode(sha256(('s' || w.n)::bytea), 'hex') end as session_id,
        case when w.r_ref < 0.3 then 'https://www.google.com/' when w.r_ref < 0.5 then 'https://www.linkedin.com/' end as referrer,
        (array['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
          'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
          'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1'])[(1 + w.n % 3)::int] as user_agent,
        (select coalesce(sum(round((w.speed * (3 + s % 5 * 2))::numeric, 1)), 0)::float8 from generate_series(1, w.k) s) as duration,
        array(select 'a:' || s || ':' || e.element_id from generate_series(1, w.k - 1) s
          join cap_elements e on e.demo_id = w.demo_id and e.step_number = s
          where (hashint8(w.n * 64 + s) & 2147483647) % 100 < ${CLICK_PERCENT} order by s) as marks
      from who w`,
      [first, first + count - 1, slice.from.toISOString(), slice.to.toISOString(), sessionFrom.toISOString()],
    );
    if (recent) {
      await g(
        'viewer_sessions',
        `insert into viewer_sessions (id, share_id, demo_id, workspace_id, viewer_name, viewer_email, anonymous_id, internal, referrer,
          user_agent, view_id, view_started_at, created_at, expires_at)
        select session_id, share_id, demo_id, $1, viewer_name, email, anonymous_id, internal, referrer, user_agent, id, started_at,
          started_at, started_at + interval '${SESSION_DAYS} days'
        from cap_v where session_id is not null`,
        [workspaceId],
      );
    }
    await g(
      'views',
      `insert into views (id, workspace_id, demo_id, share_id, version, session_id, viewer_email, viewer_name, anonymous_id, steps_viewed,
        current_step, completed, completed_at, duration_seconds, started_at, last_activity_at, referrer, user_agent, internal, company, path_marks)
      select id, $1, demo_id, share_id, 1, session_id, email, viewer_name, anonymous_id, array(select generate_series(1, k)),
        k, completed, case when completed then started_at + duration * interval '1 second' end, duration, started_at,
        started_at + duration * interval '1 second', referrer, user_agent, internal, company, marks
      from cap_v order by started_at`,
      [workspaceId],
    );
    await g(
      'view_steps',
      `insert into view_steps (view_id, view_started_at, step_number, seconds, first_reached_at)
      select v.id, v.started_at, s, round((v.speed * (3 + s % 5 * 2))::numeric, 1)::float8,
        v.started_at + (select coalesce(sum(round((v.speed * (3 + x % 5 * 2))::numeric, 1)), 0)::float8 from generate_series(1, s - 1) x) * interval '1 second'
      from cap_v v, generate_series(1, v.k) s order by v.started_at, s`,
    );
    const day = `(started_at at time zone 'UTC')::date`;
    await g(
      'demo_daily_stats',
      `insert into demo_daily_stats (demo_id, day, version, internal, views, completions, duration_seconds)
      select demo_id, ${day}, 1, internal, count(*)::int, (count(*) filter (where completed))::int, sum(duration)
      from cap_v group by 1, 2, 4 order by 1, 2, 4`,
    );
    await g(
      'demo_step_daily_stats',
      `insert into demo_step_daily_stats (demo_id, day, version, internal, step_number, views, seconds, ended_here)
      select v.demo_id, (v.started_at at time zone 'UTC')::date, 1, v.internal, s, count(*)::int,
        sum(round((v.speed * (3 + s % 5 * 2))::numeric, 1))::float8, (count(*) filter (where not v.completed and s = v.k))::int
      from cap_v v, generate_series(1, v.k) s group by 1, 2, 4, 5 order by 1, 2, 4, 5`,
    );
    await g(
      'demo_daily_segments',
      `insert into demo_daily_segments (demo_id, day, internal, share_id, company, views, completions, last_viewed_at)
      select demo_id, ${day}, internal, coalesce(share_id, ''), coalesce(company, ''), count(*)::int,
        (count(*) filter (where completed))::int, max(started_at)
      from cap_v group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5`,
    );
    await g(
      'demo_element_daily_stats',
      `insert into demo_element_daily_stats (demo_id, day, version, internal, step_number, element_id, action_type, action_clicks,
        action_views, cta_clicks, cta_views)
      select v.demo_id, (v.started_at at time zone 'UTC')::date, 1, v.internal, s, e.element_id, 'next', count(*)::int, count(*)::int, 0, 0
      from cap_v v cross join generate_series(1, v.k - 1) s
      join cap_elements e on e.demo_id = v.demo_id and e.step_number = s
      where (hashint8(v.n * 64 + s) & 2147483647) % 100 < ${CLICK_PERCENT}
      group by 1, 2, 4, 5, 6 order by 1, 2, 4, 5, 6`,
    );
    await g(
      'demo_daily_viewers',
      `insert into demo_daily_viewers (demo_id, day, version, internal, share_id, viewer_key)
      select distinct demo_id, ${day}, 1, internal, coalesce(share_id, ''), coalesce(email, anonymous_id) from cap_v`,
    );
    await g(
      'demo_daily_sketches',
      `insert into demo_daily_sketches (demo_id, day, internal, sketch)
      select demo_id, ${day}, internal, demoshare_hll_add(decode(repeat('00', 4096), 'hex'), array_agg(distinct coalesce(email, anonymous_id)))
      from cap_v group by 1, 2, 3`,
    );
    await g(
      'workspace_daily_sketches',
      `insert into workspace_daily_sketches (workspace_id, day, internal, sketch)
      select $1, ${day}, internal, demoshare_hll_add(decode(repeat('00', 4096), 'hex'), array_agg(distinct coalesce(email, anonymous_id)))
      from cap_v group by 2, 3`,
      [workspaceId],
    );
    await g(
      'shares (view counters)',
      `update shares s set view_count = s.view_count + c.n, last_viewed_at = greatest(s.last_viewed_at, c.last)
      from (select share_id, count(*)::int as n, max(started_at) as last from cap_v group by 1) c where s.id = c.share_id`,
    );
    if (recent) {
      await g(
        'ingested_events',
        `insert into ingested_events (session_id, event_id, at)
        select v.session_id, gen_random_uuid(), v.started_at + e * interval '3 seconds'
        from cap_v v, generate_series(1, v.k + cardinality(v.marks) + v.completed::int) e where v.session_id is not null`,
      );
      await g(
        'events (outbox)',
        `insert into events (id, workspace_id, kind, data, occurred_at, created_at, dispatched_at)
        select 'evt_' || lpad((to_hex(v.n * 2 + c)), 26, '0'), $1, case when c = 0 then 'demo.viewed' else 'demo.completed' end,
          case when c = 0 then jsonb_build_object('demo_id', v.demo_id, 'view_id', v.id, 'share_id', v.share_id, 'viewer_email', v.email,
              'viewer_name', v.viewer_name, 'started_at', v.started_at)
            else jsonb_build_object('demo_id', v.demo_id, 'view_id', v.id, 'share_id', v.share_id, 'viewer_email', v.email,
              'completion_time', v.duration) end,
          v.started_at, v.started_at, v.started_at + interval '1 second'
        from cap_v v, generate_series(0, v.completed::int) c where v.session_id is not null`,
        [workspaceId],
      );
    }
    const {
      rows: [made],
    } = await client.query<{ views: number; events: number }>(
      `select count(*)::int as views, sum(k + cardinality(marks) + completed::int)::bigint::float8 as events from cap_v`,
    );
    await client.query('drop table cap_v');
    return made!;
  }

  const workers: pg.Client[] = [];
  for (let j = 0; j < JOBS; j++) {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    // A bulk load, as pg_restore --disable-triggers makes one: the rows are consistent by construction, so the
    // foreign keys' per-row checks (a probe of every partition of views for each step row) are skipped.
    await client.query(
      `set synchronous_commit = off; set work_mem = '64MB'; set temp_buffers = '256MB'; set jit = off; set session_replication_role = replica`,
    );
    workers.push(client);
  }
  say(`generating about ${EVENTS.toLocaleString('en')} events over ${MONTHS} months in ${slices.length} slices, ${JOBS} at a time`);
  let next = 0;
  await Promise.all(
    workers.map(async (client) => {
      while (next < slices.length) {
        const slice = slices[next++]!;
        // Views for the slice's share of the events still to make, at the events per view seen so far.
        const left = Math.max(0, EVENTS - plannedEvents);
        const count = Math.max(1, Math.round((left / eventsPerView) * (slice.weight / Math.max(slice.weight, totalWeight - weightDone))));
        const expected = count * eventsPerView;
        plannedEvents += expected;
        weightDone += slice.weight;
        const first = nextN;
        nextN += count;
        const made = await generate(client, slice, first, count);
        generatedViews += made.views;
        generatedEvents += made.events;
        plannedEvents += made.events - expected;
        eventsPerView = generatedEvents / generatedViews;
        const s = (performance.now() - genStarted) / 1000;
        say(
          `${slice.from.toISOString().slice(0, 10)}…${slice.to.toISOString().slice(0, 10)}: ${made.views} views, ${made.events} events; ` +
            `total ${generatedEvents.toLocaleString('en')} events (${((100 * generatedEvents) / EVENTS).toFixed(0)} %), ${Math.round(generatedEvents / s)} events/s`,
        );
      }
    }),
  );
  const generationSeconds = (performance.now() - genStarted) / 1000;
  say(`generated ${generatedViews} views, ${generatedEvents} events in ${generationSeconds.toFixed(0)} s`);
  say(`statement seconds per table: ${Object.entries(tableSeconds).map(([t, x]) => `${t} ${x.toFixed(1)}`).join(', ')}`);

  // --- upkeep a running instance has had: autovacuum (visibility maps, statistics) on every table and
  // partition; the partitioned parents' statistics are the partition job's (timed below)
  let t0 = performance.now();
  const relations = (
    await q<{ name: string }>(`
      select c.oid::regclass::text as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r' order by pg_total_relation_size(c.oid) desc`)
  ).map((r) => r.name);
  let nextRelation = 0;
  await Promise.all(
    workers.map(async (client) => {
      await client.query(`set maintenance_work_mem = '256MB'; set session_replication_role = origin`);
      while (nextRelation < relations.length) await client.query(`vacuum (analyze) ${relations[nextRelation++]}`);
    }),
  );
  const vacuumSeconds = (performance.now() - t0) / 1000;
  say(`vacuum and analyze: ${vacuumSeconds.toFixed(0)} s`);
  for (const client of workers) await client.end();

  // --- sizes: rows and bytes per table (a partitioned table: all its partitions)
  const sizes = await q<{ table: string; rows: number; bytes: number; table_bytes: number; index_bytes: number }>(`
    with leaf as (
      select coalesce(p.relname, c.relname) as tbl, c.oid, c.reltuples
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      left join pg_inherits i on i.inhrelid = c.oid left join pg_class p on p.oid = i.inhparent
      where n.nspname = 'public' and c.relkind = 'r' and c.relname not like 'cap\\_%'
    )
    select tbl as "table", sum(greatest(reltuples, 0))::float8 as rows, sum(pg_total_relation_size(oid))::float8 as bytes,
      sum(pg_table_size(oid))::float8 as table_bytes, sum(pg_indexes_size(oid))::float8 as index_bytes
    from leaf group by tbl order by 3 desc`);
  const [dbSize] = await q<{ bytes: number }>(`select pg_database_size(current_database())::float8 as bytes`);
  const counts = (
    await q<Record<string, number>>(`
      select (select count(*) from views)::float8 as views, (select count(*) from view_steps)::float8 as view_steps,
        (select count(*) from views where completed)::float8 as completed,
        (select coalesce(sum(cardinality(path_marks)), 0) from views)::float8 as actions,
        (select count(*) from views where started_at >= $1)::float8 as views_last_30_days,
        (select count(*) from ingested_events)::float8 as ingested_events`,
      [sessionFrom.toISOString()],
    )
  )[0]!;
  // Events as the API counts them: view_started + step_reached (steps past the first) + completed + action_taken.
  const events = counts.view_steps! + counts.completed! + counts.actions!;
  say(`views ${counts.views}, step rows ${counts.view_steps}, events ${events}, database ${(dbSize!.bytes / 1e9).toFixed(2)} GB`);

  // --- the partition job's daily pass: the parents' statistics at this size (never analyzed yet, as after a
  // month of growth), then a pass with nothing to do
  t0 = performance.now();
  const firstPass = await viewPartitionsPass({ database: db, clock: { now: () => now } });
  const partitionJobAnalyzeMs = performance.now() - t0;
  say(`partition job, analyzing ${firstPass.analyzed.join(', ') || 'nothing'}: ${partitionJobAnalyzeMs.toFixed(0)} ms`);

  // --- the analytics pages, through the app, with the key; cold = first request, warm = median of 7 after it
  const hot = hotIds[0]!;
  const today = now.toISOString().slice(0, 10);
  const dayAgo = (n: number) => new Date(now.getTime() - n * DAY).toISOString().slice(0, 10);
  const month = `start_date=${dayAgo(29)}&end_date=${today}`;
  const year = `start_date=${firstMonth.toISOString().slice(0, 10)}&end_date=${today}`;
  const [deepRow] = await q<{ started_at: Date; id: string }>(
    `select started_at, id from views where demo_id = $1 and started_at < $2 order by started_at desc, id desc limit 1`,
    [hot, monthStart(now, -6).toISOString()],
  );
  const deepCursor = Buffer.from(JSON.stringify([new Date(deepRow!.started_at).toISOString(), deepRow!.id, 2])).toString('base64url');
  const [someView] = await q<{ id: string }>(
    `select id from views where demo_id = $1 and viewer_email is not null and started_at > $2 limit 1`,
    [hot, sessionFrom.toISOString()],
  );
  const [someEmail] = await q<{ viewer_email: string }>(`select viewer_email from views where id = $1`, [someView!.id]);
  const pages: Array<[string, string]> = [
    ['workspace overview, 30 days by day', `/v1/analytics?${month}&granularity=day`],
    ['workspace overview, 12 months by month', `/v1/analytics?${year}&granularity=month`],
    ['hot demo: summary, per step, series (30 days by day)', `/v1/demos/${hot}/analytics?${month}&granularity=day`],
    ['hot demo: summary, per step, series (12 months by week)', `/v1/demos/${hot}/analytics?${year}&granularity=week`],
    ['hot demo: paths, hotspots, forms (30 days)', `/v1/demos/${hot}/analytics/paths?${month}`],
    ['hot demo: paths, hotspots, forms (12 months)', `/v1/demos/${hot}/analytics/paths?${year}`],
    ['hot demo: per link (30 days)', `/v1/demos/${hot}/analytics/links?${month}`],
    ['hot demo: per link (12 months)', `/v1/demos/${hot}/analytics/links?${year}`],
    ['hot demo: per company (30 days)', `/v1/demos/${hot}/analytics/companies?${month}`],
    ['hot demo: per company (12 months)', `/v1/demos/${hot}/analytics/companies?${year}`],
    ['views list, first page of 20', `/v1/demos/${hot}/views?per_page=20`],
    ['views list, first page of 100', `/v1/demos/${hot}/views?per_page=100`],
    ['views list, keyset page 6 months deep', `/v1/demos/${hot}/views?per_page=20&cursor=${deepCursor}`],
    ['views list, page 500 by number', `/v1/demos/${hot}/views?per_page=20&page=500`],
    ['views list, one viewer’s views', `/v1/demos/${hot}/views?per_page=20&viewer_email=${encodeURIComponent(someEmail!.viewer_email)}`],
    ['a view’s journey', `/v1/demos/${hot}/views/${someView!.id}/journey`],
  ];
  interface PageFigure {
    page: string;
    url: string;
    coldMs: number;
    warmMs: number;
    statements: number;
    slowest: Statement;
  }
  const pageFigures: PageFigure[] = [];
  for (const [label, pageUrl] of pages) {
    const timeOne = async () => {
      recording = [];
      const t = performance.now();
      const res = await app.inject({ method: 'GET', url: pageUrl, headers: auth });
      const ms = performance.now() - t;
      const statements = recording;
      recording = null;
      if (res.statusCode !== 200) throw new Error(`${pageUrl}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { ms, statements };
    };
    const cold = await timeOne();
    const warm: number[] = [];
    let last = cold;
    for (let i = 0; i < 7; i++) {
      last = await timeOne();
      warm.push(last.ms);
    }
    const slowest = [...last.statements].sort((a, b) => b.ms - a.ms)[0] ?? { text: '', values: [], ms: 0 };
    pageFigures.push({ page: label, url: pageUrl, coldMs: cold.ms, warmMs: median(warm), statements: last.statements.length, slowest });
    say(`${label}: cold ${cold.ms.toFixed(1)} ms, warm ${median(warm).toFixed(1)} ms (${last.statements.length} statements)`);
  }
  // EXPLAIN (ANALYZE, BUFFERS) of the slowest statement of the three slowest pages
  const plans: Array<{ page: string; ms: number; text: string; plan: string }> = [];
  for (const figure of [...pageFigures].sort((a, b) => b.warmMs - a.warmMs).slice(0, 3)) {
    const { text, values } = figure.slowest;
    if (!text) continue;
    const rows = await q<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${text}`, values);
    plans.push({ page: figure.page, ms: figure.slowest.ms, text, plan: rows.map((r) => r['QUERY PLAN']).join('\n') });
  }

  // --- the partition job: nothing to make (the usual night), then a new month made at this size
  t0 = performance.now();
  await viewPartitionsPass({ database: db, clock: { now: () => now } });
  const partitionJobNoopMs = performance.now() - t0;
  t0 = performance.now();
  await createMonthPartitions(db, monthStart(now, 3), monthStart(now, 4));
  const partitionNewMonthMs = performance.now() - t0;
  say(`partition job: ${partitionJobNoopMs.toFixed(0)} ms with nothing to make, ${partitionNewMonthMs.toFixed(0)} ms for a new month`);

  // --- ingestion at size (the same probe demo, same path)
  const ingestAtSize = await ingestRate('at size');

  // --- the hourly viewer clean-up, a day ahead: the sessions that expire over one day go, their event ids
  // by cascade, and their views forget them (views.session_id set null)
  const ahead = new Date(now.getTime() + DAY);
  const [expiring] = await q<{ sessions: number; events: number }>(
    `select (select count(*) from viewer_sessions where expires_at < $1)::int as sessions,
      (select count(*) from ingested_events e join viewer_sessions s on s.id = e.session_id where s.expires_at < $1)::int as events`,
    [ahead.toISOString()],
  );
  t0 = performance.now();
  const cleaned = await cleanUpViewerData({ database: db, clock: { now: () => ahead }, config: testConfig() });
  const cleanupMs = performance.now() - t0;
  say(`viewer clean-up, a day of expired sessions: ${cleaned.sessions} sessions, ${expiring!.events} event ids in ${cleanupMs.toFixed(0)} ms`);

  // --- retention: a night that deletes one day of the oldest month row by row, then the night that drops it
  const oldest = firstMonth;
  const retentionAt = (keptFrom: Date) => ({
    database: db,
    clock: { now: () => now },
    config: testConfig({ VIEW_RETENTION: now.getTime() - keptFrom.getTime() }),
  });
  const [oldestDay] = await q<{ n: number }>(`select count(*)::int as n from views where started_at >= $1 and started_at < $2`, [
    oldest.toISOString(),
    new Date(oldest.getTime() + DAY).toISOString(),
  ]);
  t0 = performance.now();
  const dayPass = await applyViewRetention(retentionAt(new Date(oldest.getTime() + DAY)));
  const dayPassMs = performance.now() - t0;
  say(`retention, one day row by row: ${dayPass.views} views, ${dayPass.rollupRows} roll-up rows in ${dayPassMs.toFixed(0)} ms`);
  const second = monthStart(now, -(MONTHS - 2));
  const [left] = await q<{ n: number }>(`select count(*)::int as n from views where started_at < $1`, [second.toISOString()]);
  t0 = performance.now();
  const months = await monthsEndingBy(db.db, second);
  let droppedViews = 0;
  for (const m of months) droppedViews += await dropMonth(db, m);
  const dropMs = performance.now() - t0;
  t0 = performance.now();
  const monthPass = await applyViewRetention(retentionAt(second));
  const monthRestMs = performance.now() - t0;
  say(`retention, the month: ${droppedViews} views dropped with the partitions in ${dropMs.toFixed(0)} ms; the rest of the pass (roll-ups) ${monthRestMs.toFixed(0)} ms`);

  await close();

  Object.assign(results, {
    finishedAt: new Date().toISOString(),
    loadAverageAtEnd: loadavg(),
    database: name,
    generation: { views: counts.views, stepRows: counts.view_steps, events, eventsCounted: generatedEvents, seconds: generationSeconds, byTable: tableSeconds },
    counts,
    vacuumSeconds,
    sizes,
    databaseBytes: dbSize!.bytes,
    pages: pageFigures.map(({ slowest, ...f }) => ({ ...f, slowestStatementMs: slowest.ms })),
    plans,
    partitionJob: { analyzed: firstPass.analyzed, analyzeMs: partitionJobAnalyzeMs, nothingToMakeMs: partitionJobNoopMs, newMonthMs: partitionNewMonthMs },
    ingestion: { empty: ingestEmpty, atSize: ingestAtSize },
    sessionCleanup: { sessions: cleaned.sessions, eventIds: expiring!.events, ms: cleanupMs },
    retention: {
      oneDayRowByRow: { viewsThatDay: oldestDay!.n, ...dayPass, ms: dayPassMs },
      month: { viewsLeftInMonth: left!.n, droppedViews, dropMs, restOfPass: monthPass, restMs: monthRestMs },
    },
  });
  writeResults();
} catch (error) {
  exitCode = 1;
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
} finally {
  clientProto.query = originalQuery;
  await database?.close().catch(() => {});
  await dropDatabase().catch((error) => process.stderr.write(`could not drop ${name}: ${String(error)}\n`));
  await admin.end();
}
process.exit(exitCode);

function writeResults() {
  // biome-ignore lint/suspicious/noExplicitAny: the results object built above, read back for the table.
  const r = results as Record<string, any>;
  const gb = (b: number) => (b / 1e9).toFixed(2);
  const n = (x: number) => Math.round(x).toLocaleString('en');
  const lines: string[] = [];
  lines.push(`# Capacity at ${n(r.generation.events)} events`, '');
  lines.push(
    `PostgreSQL ${r.postgres.version} (shared_buffers ${r.postgres.sharedBuffers}), ${r.cores} cores, Node ${r.node}; load average ${r.loadAverageAtStart.map((x: number) => x.toFixed(2)).join(', ')} at the start, ${r.loadAverageAtEnd.map((x: number) => x.toFixed(2)).join(', ')} at the end. ${r.startedAt} → ${r.finishedAt}.`,
    '',
  );
  lines.push('## Generated (set-based SQL in the database)', '');
  lines.push('| figure | value |', '|---|--:|');
  lines.push(`| events (view_started + step_reached + action_taken + completed) | ${n(r.generation.events)} |`);
  lines.push(`| views / step rows | ${n(r.counts.views)} / ${n(r.counts.view_steps)} |`);
  lines.push(`| views of the last 30 days (with sessions, event ids, outbox rows) | ${n(r.counts.views_last_30_days)} |`);
  lines.push(`| generation | ${r.generation.seconds.toFixed(0)} s (${n(r.generation.events / r.generation.seconds)} events/s) |`);
  lines.push(`| vacuum (analyze) of every table | ${r.vacuumSeconds.toFixed(0)} s |`);
  lines.push(`| database size | ${gb(r.databaseBytes)} GB |`, '');
  lines.push(`Seconds per table over the generation (statement time summed over the ${r.options.jobs} connections):`, '');
  lines.push('| table | s |', '|---|--:|');
  for (const [t, s] of Object.entries(r.generation.byTable as Record<string, number>)) lines.push(`| ${t} | ${s.toFixed(1)} |`);
  lines.push('', '## Sizes', '');
  lines.push('| table | rows | total GB | table GB | index GB | bytes per view |', '|---|--:|--:|--:|--:|--:|');
  for (const s of r.sizes) {
    if (s.bytes < 1e6) continue;
    lines.push(`| ${s.table} | ${n(s.rows)} | ${gb(s.bytes)} | ${gb(s.table_bytes)} | ${gb(s.index_bytes)} | ${(s.bytes / r.counts.views).toFixed(0)} |`);
  }
  lines.push('', '## Analytics pages (in process, app.inject with an API key)', '');
  lines.push('| page | cold ms | warm ms (median of 7) | statements | slowest statement ms |', '|---|--:|--:|--:|--:|');
  for (const p of r.pages) lines.push(`| ${p.page} | ${p.coldMs.toFixed(1)} | ${p.warmMs.toFixed(1)} | ${p.statements} | ${p.slowestStatementMs.toFixed(1)} |`);
  lines.push('', '## Upkeep at this size', '');
  lines.push('| figure | value |', '|---|--:|');
  lines.push(`| partition job, analyzing the parents (${r.partitionJob.analyzed.join(', ') || 'none'}) | ${r.partitionJob.analyzeMs.toFixed(0)} ms |`);
  lines.push(`| partition job, nothing to make | ${r.partitionJob.nothingToMakeMs.toFixed(0)} ms |`);
  lines.push(`| partition job, a new month made | ${r.partitionJob.newMonthMs.toFixed(0)} ms |`);
  const day = r.retention.oneDayRowByRow;
  lines.push(`| retention: one day deleted row by row (${n(day.views)} views, ${n(day.rollupRows)} roll-up rows) | ${day.ms.toFixed(0)} ms |`);
  const c = r.sessionCleanup;
  lines.push(`| viewer clean-up: a day of expired sessions (${n(c.sessions)} sessions, ${n(c.eventIds)} event ids, their views unlinked) | ${c.ms.toFixed(0)} ms |`);
  const m = r.retention.month;
  lines.push(`| retention: the rest of the month dropped with its partitions (${n(m.droppedViews)} views) | ${m.dropMs.toFixed(0)} ms |`);
  lines.push(`| retention: the same pass's roll-up deletes (${n(m.restOfPass.rollupRows)} rows) | ${m.restMs.toFixed(0)} ms |`);
  lines.push('', '## Ingestion (in process, the real batched ingestion, one demo of its own workspace)', '');
  lines.push('| database | views | events | s | events/s | load average |', '|---|--:|--:|--:|--:|--:|');
  for (const [label, f] of [
    ['empty', r.ingestion.empty],
    ['at size', r.ingestion.atSize],
  ] as const) {
    lines.push(`| ${label} | ${n(f.views)} | ${n(f.events)} | ${f.seconds.toFixed(1)} | ${n(f.eventsPerSecond)} | ${f.loadAverage.toFixed(2)} |`);
  }
  lines.push('', '## Plans of the slowest statements', '');
  for (const p of r.plans) lines.push(`### ${p.page} (${p.ms.toFixed(1)} ms)`, '', '```sql', p.text, '```', '', '```', p.plan, '```', '');
  const dir = path.resolve('bench/results');
  mkdirSync(dir, { recursive: true });
  const stamp = String(r.startedAt).replace(/[:.]/g, '-');
  writeFileSync(path.join(dir, `capacity-${stamp}.json`), `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync(path.join(dir, `capacity-${stamp}.md`), `${lines.join('\n')}\n`);
  say(`results: bench/results/capacity-${stamp}.md`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
}
