/**
 * `npm run bench:retention [-- --views 50000 --days 90 --keep 45]`
 *
 * What the daily VIEW_RETENTION pass (src/viewer-privacy/view-retention.ts) costs on the embedded database:
 * one demo seeded with `views` views over `days` days through the real ingestion (seed:views), then the pass
 * keeping `keep` days: its time, the views and roll-up rows it deleted, the same pass with nothing left to
 * delete, and an analytics read of the whole period before and after. The months seeded have their own
 * partitions, as on an instance that ran all along: whole months past `keep` are dropped, the rest deleted.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { testConfig } from '../src/config';
import { systemClock } from '../src/core/clock';
import { openDatabase } from '../src/db/client';
import { applyViewRetention } from '../src/viewer-privacy/view-retention';
import { seedViews } from '../src/viewing/seed-views';
import { monthStart } from '../src/viewing/view-partitions';
import { createMonthPartitions } from '../src/viewing/view-partitions.repo';
import { medianMs, startInProcessApp } from './in-process';
import { caller, seedDemo } from './seed-demo';

const { values: args } = parseArgs({
  options: { views: { type: 'string', default: '50000' }, days: { type: 'string', default: '90' }, keep: { type: 'string', default: '45' } },
});
const VIEWS = Number(args.views);
const DAYS = Number(args.days);
const KEEP = Number(args.keep);

const database = await openDatabase({});
const { app, close } = await startInProcessApp(database);
try {
  const { auth, demo } = await seedDemo(app, ['demos:read', 'demos:write', 'analytics:read']);
  await caller(app)('PATCH', `/v1/demos/${demo.id}`, { status: 'published' }, auth);
  // The monthly partitions an instance running all along would have had made ahead (docs/partitioning.md),
  // so that the pass drops the months wholly past the retention instead of deleting their rows.
  const now = new Date();
  for (let m = monthStart(new Date(now.getTime() - DAYS * 86_400_000)); m < now; m = monthStart(m, 1)) {
    await createMonthPartitions(database, m, monthStart(m, 1));
  }
  let t0 = performance.now();
  await seedViews(database, { demoId: demo.id, views: VIEWS, days: DAYS, seed: 1 });
  console.log(`seeded ${VIEWS} views over ${DAYS} days in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.now() - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const read = async () => {
    const res = await app.inject({ method: 'GET', url: `/v1/demos/${demo.id}/analytics?start_date=${from}&end_date=${today}`, headers: auth });
    if (res.statusCode !== 200) throw new Error(`analytics: ${res.statusCode} ${res.body}`);
    return res.json().data as { total_views: number };
  };
  const viewsBefore = (await read()).total_views;
  const readBefore = await medianMs(read);

  t0 = performance.now();
  const result = await applyViewRetention({ database, clock: systemClock, config: testConfig({ VIEW_RETENTION: KEEP * 86_400_000 }) });
  const passMs = performance.now() - t0;
  const viewsAfter = (await read()).total_views;
  const readAfter = await medianMs(read);
  t0 = performance.now();
  const again = await applyViewRetention({ database, clock: systemClock, config: testConfig({ VIEW_RETENTION: KEEP * 86_400_000 }) });
  const againMs = performance.now() - t0;

  console.log(`\n| figure | value |\n|---|--:|`);
  console.log(`| views before / after (analytics, ${DAYS} days) | ${viewsBefore} / ${viewsAfter} |`);
  console.log(`| views deleted, kept from ${result.keptFrom} | ${result.views} |`);
  console.log(`| roll-up rows deleted | ${result.rollupRows} |`);
  console.log(`| the pass, ms | ${Math.round(passMs)} |`);
  console.log(`| the pass again, nothing to delete, ms | ${Math.round(againMs)} (${again.views} views) |`);
  console.log(`| analytics read (${DAYS} days) before / after, median ms | ${readBefore.toFixed(1)} / ${readAfter.toFixed(1)} |`);
} finally {
  await close();
  await database.close();
}
