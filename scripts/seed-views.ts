/**
 * `npm run seed:views -- --demo ID --views N [--days 90] [--links 6] [--seed 1]`
 *
 * Writes N synthetic views of a published demo through the real ingestion (src/viewing/seed-views.ts), on the
 * database the server is configured with (DATABASE_URL, else PGlite in DATA_DIR). Stop the server first
 * when it runs on PGlite: its data directory belongs to one process.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config';
import { openConfiguredDatabase } from '../src/runtime';
import { seedViews } from '../src/viewing/seed-views';

const { values } = parseArgs({
  options: {
    demo: { type: 'string' },
    views: { type: 'string', default: '10000' },
    days: { type: 'string', default: '90' },
    links: { type: 'string', default: '6' },
    seed: { type: 'string', default: '1' },
  },
});
const views = Number(values.views);
if (!values.demo || !Number.isInteger(views) || views < 1) {
  process.stderr.write('Usage: npm run seed:views -- --demo ID --views N [--days 90] [--links 6] [--seed 1]\n');
  process.exit(2);
}

const database = await openConfiguredDatabase(loadConfig());
const started = performance.now();
let shown = 0;
try {
  const result = await seedViews(database, {
    demoId: values.demo,
    views,
    days: Number(values.days),
    links: Number(values.links),
    seed: Number(values.seed),
    onProgress: (done) => {
      if (done - shown >= 50_000 || done === views) {
        shown = done;
        const s = (performance.now() - started) / 1000;
        process.stderr.write(`${done} views in ${s.toFixed(0)} s (${Math.round(done / s)}/s)\n`);
      }
    },
  });
  const s = (performance.now() - started) / 1000;
  process.stdout.write(`Seeded ${result.views} views from about ${result.viewers} viewers over ${result.links} links in ${s.toFixed(1)} s.\n`);
} finally {
  await database.close();
}
