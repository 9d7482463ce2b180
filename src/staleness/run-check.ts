// The check job: read the draft, capture its pages again, compare each step, then record the results (and on drift the demo.stale event and the owner's e-mail) in one transaction.
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import { emitEvent } from '../events/outbox';
import type { MailQueue } from '../mail/mail-queue';
import { compareStep, type QueryTargets, type StepOutcome, type StepToCheck } from './compare-step';
import { type PageWanted, type RecaptureDeps, recapturePages } from './recapture';
import * as repo from './staleness.repo';
import type { CheckRow } from './staleness.repo';
import type { StepResult } from './staleness.tables';
import { staleMail } from './stale-mail';

/** At most this many distinct pages are captured in one check; steps on further pages come back `unreachable` (`timeout`). */
export const MAX_PAGES_PER_CHECK = 25;
/** Time for one page, and the whole check's ceiling. */
const PER_PAGE_MS = 20_000;
const MAX_CHECK_MS = 5 * 60_000;

export interface RunCheckDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  reader: Pick<DemoReader, 'draft' | 'asset'>;
  recapture: RecaptureDeps;
  query: QueryTargets;
  mailQueue: MailQueue;
  appUrl: string;
}

/** Runs the check `checkId` to its end; a check already finished is left alone (a job run twice). */
export async function runCheck(deps: RunCheckDeps, checkId: string): Promise<void> {
  const { db } = deps.database;
  const check = await repo.startCheck(db, checkId, deps.clock.now());
  if (!check) return;
  try {
    await check_(deps, check);
  } catch (error) {
    await repo.failCheck(db, checkId, `The check could not run: ${(error as Error).message}`, deps.clock.now());
    throw error;
  }
}

async function check_(deps: RunCheckDeps, check: CheckRow) {
  const { db } = deps.database;
  const draft = await deps.reader.draft(check.workspaceId, check.demoId);
  if (!draft) return repo.failCheck(db, check.id, 'The demo is gone.', deps.clock.now());
  const numbered = draft.steps.map((s, i) => ({ step: s, number: i + 1 })).filter(({ step }) => step.pageUrl && /^https?:/i.test(step.pageUrl));

  const urls = [...new Set(numbered.map(({ step }) => step.pageUrl!))];
  const captured = urls.slice(0, MAX_PAGES_PER_CHECK);
  const wanted: PageWanted[] = captured.map((url) => ({
    url,
    first: url === draft.demo.sourceUrl || (url === urls[0] && !draft.demo.sourceUrl),
    selectors: new Set(
      draft.hotspots.filter((h) => h.selector && numbered.some(({ step }) => step.id === h.stepId && step.pageUrl === url)).map((h) => h.selector!),
    ),
  }));
  // HTML capture for a demo made of snapshots only (captured without a browser); screenshots otherwise.
  const snapshotsOnly = numbered.some(({ step }) => step.htmlAssetId) && !numbered.some(({ step }) => step.imageAssetId);
  const deadline = Date.now() + Math.min(MAX_CHECK_MS, 10_000 + PER_PAGE_MS * wanted.length);
  const { mode, pages } = await recapturePages(deps.recapture, wanted, snapshotsOnly ? 'html' : 'chromium', deadline);
  const byUrl = new Map(pages.map((p) => [p.url, p]));

  const baselines = await repo.findBaselines(db, numbered.map(({ step }) => step.id));
  const limits = { imageThreshold: check.imageThreshold, boxThresholdPx: check.boxThresholdPx };
  const outcomes: StepOutcome[] = [];
  for (const { step, number } of numbered) {
    const page = byUrl.get(step.pageUrl!) ?? {
      url: step.pageUrl!,
      page: null,
      reason: 'timeout' as const,
      message: `Not captured: a check captures at most ${MAX_PAGES_PER_CHECK} pages.`,
    };
    const toCheck: StepToCheck = {
      id: step.id,
      number,
      pageUrl: step.pageUrl!,
      width: step.width,
      height: step.height,
      image: step.imageAssetId ? ((await deps.reader.asset(check.demoId, step.imageAssetId))?.bytes ?? null) : null,
      html: step.htmlAssetId ? ((await deps.reader.asset(check.demoId, step.htmlAssetId))?.bytes.toString('utf8') ?? null) : null,
      hotspots: draft.hotspots.filter((h) => h.stepId === step.id),
      baseline: baselines.get(step.id) ?? null,
    };
    outcomes.push(await compareStep(toCheck, page, limits, deps.query));
  }

  const results = outcomes.map((o) => o.result);
  const drift = results.some((r) => r.status !== 'ok');
  const now = deps.clock.now();
  const owner = drift && check.trigger === 'schedule' ? await repo.ownerEmail(db, check.demoId) : undefined;
  await db.transaction(async (tx) => {
    await repo.finishCheck(tx, check.id, { results, drift, captureMode: mode, finishedAt: now });
    await repo.replaceCaptures(
      tx,
      check.demoId,
      outcomes.flatMap((o) =>
        o.capture
          ? [{ checkId: check.id, stepId: o.result.stepId, demoId: check.demoId, ...o.capture, baseline: o.capture.baseline, createdAt: now }]
          : [],
      ),
    );
    await repo.addBaselines(
      tx,
      outcomes.flatMap((o) => (o.firstBaseline ? [{ stepId: o.result.stepId, demoId: check.demoId, baseline: o.firstBaseline, updatedAt: now }] : [])),
    );
    if (!drift) return;
    const stale = results.filter((r) => r.status !== 'ok');
    await emitEvent(tx, deps.clock, {
      workspaceId: check.workspaceId,
      kind: 'demo.stale',
      data: {
        demo_id: check.demoId,
        check_id: check.id,
        title: draft.demo.title,
        trigger: check.trigger,
        stale_steps: stale.length,
        checked_steps: results.length,
        steps: stale.map((r) => ({ step_id: r.stepId, number: r.number, page_url: r.pageUrl, status: r.status, reasons: r.reasons })),
        checked_at: now.toISOString(),
      },
    });
    // A schedule e-mails the owner when what is stale changed since the last scheduled check, not every day it stays so.
    if (owner && (await isNews(tx, check, stale))) {
      await deps.mailQueue.send(staleMail(owner, { appUrl: deps.appUrl, demo: { id: check.demoId, title: draft.demo.title }, stale }), tx);
    }
  });
}

async function isNews(tx: Parameters<typeof repo.previousScheduled>[0], check: CheckRow, stale: StepResult[]) {
  const before = await repo.previousScheduled(tx, check.demoId, check.id);
  const key = (rs: StepResult[]) =>
    rs
      .filter((r) => r.status !== 'ok')
      .map((r) => `${r.stepId}:${r.status}:${r.reasons.join(',')}`)
      .sort()
      .join('|');
  return !before || key(before.results) !== key(stale);
}
