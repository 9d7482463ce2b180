/**
 * Synthetic views for a published demo (`npm run seed:views`), written through the real ingestion so every
 * roll-up is what live traffic would have made: views spread over the last `days` days (busier on weekdays),
 * each going a few steps further with a falling chance (drop-off), repeat viewers, identified viewers at a
 * few hundred companies and at free-mail providers, anonymous ones, and several share links. Deterministic
 * for a given `seed`.
 */
import { randomUUID } from 'node:crypto';
import { randomToken, sha256Hex } from '../core/crypto';
import type { Database } from '../db/client';
import { createDemoReader } from '../demos/demos.reader';
import { countLinkViews } from '../shares/link-view-counter';
import { findDemoWorkspace, insertSeedShare, insertViewerSessions, listDemoShareIds, type SeedSession } from './seed-views.repo';
import type { IngestEvent } from './view-progress';
import { createLocalBus } from '../core/bus';
import { Changes } from '../core/changes';
import { createIngestion, type IngestItem } from './ingestion';
import { ViewerCache } from './viewer-cache';

export interface SeedViewsOptions {
  demoId: string;
  views: number;
  days?: number;
  links?: number;
  seed?: number;
  /** The last day seeded is this one's. */
  now?: Date;
  onProgress?: (done: number) => void;
}

const DAY = 86_400_000;
const FREE_MAIL = ['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com'];
const FIRST_NAMES = ['ana', 'ben', 'chloe', 'dev', 'emma', 'farid', 'grace', 'hugo', 'ines', 'jon', 'kai', 'lena'];

/** mulberry32: small, fast and good enough to make traffic look varied. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export async function seedViews(database: Pick<Database, 'db' | 'kind'>, options: SeedViewsOptions) {
  const { db } = database;
  const days = options.days ?? 90;
  const rand = random(options.seed ?? 1);
  const now = options.now ?? new Date();
  const workspaceId = await findDemoWorkspace(db, options.demoId);
  if (!workspaceId) throw new Error(`No demo ${options.demoId}`);
  const state = await createDemoReader(database).state(options.demoId);
  if (!state || state.version === null) throw new Error(`Demo ${options.demoId} is not published: publish it first`);
  const stepCount = Math.max(1, state.stepCount);

  // Links: the demo's own, topped up with seeded ones ("one per prospect" in real use).
  const linkCount = options.links ?? 6;
  const links = await listDemoShareIds(db, options.demoId);
  for (let i = links.length; i < linkCount; i++) links.push(await insertSeedShare(db, workspaceId, options.demoId, `Seeded link ${i + 1}`));

  // Viewers: about one per three views, 60% identified; a few come back often.
  const viewerCount = Math.max(1, Math.round(options.views / 3));
  const companies = Math.max(5, Math.min(400, Math.round(viewerCount / 20)));
  const viewer = (n: number) => {
    const r = random(n * 7919 + 17);
    if (r() >= 0.6) return { email: null, name: null };
    const first = FIRST_NAMES[Math.floor(r() * FIRST_NAMES.length)]!;
    const domain = r() < 0.25 ? FREE_MAIL[Math.floor(r() * FREE_MAIL.length)]! : `company-${Math.floor(r() * companies) + 1}.example`;
    return { email: `${first}.${n}@${domain}`, name: `${first[0]!.toUpperCase()}${first.slice(1)} ${n}` };
  };
  const pickViewer = () => Math.floor(viewerCount * rand() ** 2); // squared: low numbers return often

  // Views per day: weekdays twice as busy as weekends.
  const firstDay = Math.floor(now.getTime() / DAY) - (days - 1);
  const weights = Array.from({ length: days }, (_, i) => ([0, 6].includes(new Date((firstDay + i) * DAY).getUTCDay()) ? 1 : 2));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const perDay = weights.map((w) => Math.floor((options.views * w) / weightSum));
  perDay[days - 1]! += options.views - perDay.reduce((a, b) => a + b, 0);

  let at = now;
  const ingestion = createIngestion({
    database,
    clock: { now: () => at },
    log: { warn: (o, m) => process.stderr.write(`${m}: ${JSON.stringify(o)}\n`) },
    // Seeding bypasses the link's gates (`ingest`, not `record`): the cache is never read.
    cache: new ViewerCache(new Changes(createLocalBus())),
    countLinkViews,
  });

  let done = 0;
  const CHUNK = 2_000;
  for (let d = 0; d < days; d++) {
    const dayStart = (firstDay + d) * DAY;
    for (let left = perDay[d]!; left > 0; left -= CHUNK) {
      const n = Math.min(CHUNK, left);
      const items: IngestItem[] = [];
      const rows: SeedSession[] = [];
      for (let i = 0; i < n; i++) {
        const who = viewer(pickViewer());
        const shareId = links[Math.floor(links.length * rand() ** 1.5)]!;
        const session = {
          id: sha256Hex(randomToken(16)),
          shareId,
          demoId: options.demoId,
          workspaceId,
          passwordVersion: null,
          viewerName: who.name,
          viewerEmail: who.email,
          anonymousId: randomToken(12),
          referrer: null,
          userAgent: 'demoshare seed:views',
          internal: false,
          createdAt: new Date(dayStart),
          expiresAt: new Date(dayStart + DAY),
        };
        rows.push(session);
        // Each further step is reached with a falling chance; the last one's viewers mostly complete.
        const events: IngestEvent[] = [{ id: randomUUID(), type: 'view_started' }];
        let step = 1;
        while (step < stepCount && rand() < 0.86 - step * 0.02) {
          step++;
          events.push({ id: randomUUID(), type: 'step_reached', stepNumber: step, seconds: 2 + Math.round(rand() * 180) / 10 });
        }
        if (step === stepCount && rand() < 0.9) events.push({ id: randomUUID(), type: 'completed', seconds: 1 + Math.round(rand() * 50) / 10 });
        items.push({ session: session as IngestItem['session'], shareId, stepCount, version: state.version, events });
      }
      await insertViewerSessions(db, rows);
      // The chunk's views start at one moment of its day (the clock the ingestion reads), never in the future.
      at = new Date(Math.min(now.getTime(), dayStart + Math.floor(rand() * DAY)));
      await Promise.all(items.map((item) => ingestion.ingest(item)));
      done += n;
      options.onProgress?.(done);
    }
  }
  return { views: done, links: links.length, viewers: viewerCount };
}
