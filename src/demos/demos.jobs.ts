// Generation jobs: the worker that runs one generation under a lease, the sweep that resends lost or lapsed ones.
import pino from 'pino';
import type { AiSettingsFor } from '../ai/ai.service';
import type { Kernel } from '../context';
import { tags } from '../core/changes';
import { randomToken } from '../core/crypto';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import type { GeneratedHotspot, GenerationResult } from '../generation/generation.types';
import * as repo from './demos.repo';
import type { DemoRow } from './demos.repo';
import { GENERATE_QUEUE, type GenerateJob } from './generation-start';
import type { HotspotAction } from './demos.tables';
import { sniffImage } from '../core/image-sniff';
import { storeHtml, storeImage } from './step-assets';
import { explainGenerationFailure, type GenerationFailure } from './generation-failure';
import { keptDuplicates } from './kept-steps';
import { carryPatches } from './carry-patches';
import { collectBlobs } from './blob-collector';

export const SWEEP_QUEUE = 'demos.generation-sweep';
/** The asset store's collector of unnamed blobs (blob-collector.ts); only with ASSET_STORE filesystem or s3. */
export const BLOB_GC_QUEUE = 'maintenance.asset-blob-gc';

/** A job id known to the demo but gone from the queue for this long is considered lost. */
const UNSENT_GRACE_MS = 60_000;
const DEADLINE_GRACE_MS = 15_000;

/** The kernel, and the model each workspace writes with (the ai module's, through the demos services). */
export type GenerationContext = Kernel & { aiSettingsFor?: AiSettingsFor };

export async function registerDemosJobs(ctx: GenerationContext) {
  const timeoutSeconds = Math.ceil(ctx.config.GENERATION_TIMEOUT / 1000);
  await ctx.queue.define({
    name: GENERATE_QUEUE,
    retryLimit: 2,
    retryDelay: 5,
    retryBackoff: true,
    // A worker that dies mid-generation leaves its job active; expiry hands it to another worker.
    expireInSeconds: timeoutSeconds + 60 + DEADLINE_GRACE_MS / 1000,
  });
  await ctx.queue.define({ name: SWEEP_QUEUE, retryLimit: 0 });
  await ctx.queue.work<GenerateJob>(
    GENERATE_QUEUE,
    { concurrency: ctx.config.GENERATION_WORKERS, pollingIntervalSeconds: 1 },
    (data, job) => runGeneration(ctx, data, job.id),
  );
  await ctx.queue.work(SWEEP_QUEUE, {}, () => sweepGenerations(ctx));
  await ctx.queue.schedule(SWEEP_QUEUE, '*/5 * * * *');
  // Once at start-up too, so demos orphaned by a crash do not wait for the schedule.
  await ctx.queue.send(SWEEP_QUEUE, {});
  if (ctx.queue.runsWorkers) startLeaseSweep(ctx);
  const store = ctx.assetStore;
  if (store) {
    await ctx.queue.define({ name: BLOB_GC_QUEUE, retryLimit: 2, retryDelay: 600 });
    await ctx.queue.work(BLOB_GC_QUEUE, {}, async () => {
      const done = await collectBlobs({ database: ctx.database, assetStore: store, clock: ctx.clock, graceMs: ctx.config.ASSET_GC_GRACE });
      pino({ level: ctx.config.LOG_LEVEL, name: 'assets' }).info(done, 'asset store collected');
    });
    await ctx.queue.schedule(BLOB_GC_QUEUE, '17 4 * * *');
  }
}

/**
 * Every worker looks for lapsed generation leases at start and every third of GENERATION_LEASE: pg-boss's
 * cron runs once a minute at best, and its expiry (GENERATION_TIMEOUT + 75 s) is far longer than a lease.
 */
function startLeaseSweep(ctx: Kernel) {
  const log = pino({ level: ctx.config.LOG_LEVEL, name: 'generation' });
  let running: Promise<void> | undefined;
  const sweep = () => {
    running ??= takeOverLapsedGenerations(ctx)
      .then(() => {})
      .catch((error) => log.warn({ err: error }, 'generation lease sweep failed; trying again'))
      .finally(() => {
        running = undefined;
      });
  };
  sweep();
  const timer = setInterval(sweep, Math.max(1_000, Math.floor(ctx.config.GENERATION_LEASE / 3)));
  timer.unref();
  ctx.queue.onStop(async () => {
    clearInterval(timer);
    await running;
  });
}

/**
 * Renews the attempt's lease every third of GENERATION_LEASE while the generator runs. A failed renewal
 * (database away) is tried again at the next tick; one that finds the attempt gone means the generation
 * was taken over, and the final write will be fenced off by the attempt token anyway.
 */
function holdLease(ctx: Kernel, demoId: string, attempt: string): () => void {
  const timer = setInterval(
    () => {
      repo.renewGenerationLease(ctx.database.db, demoId, attempt, ctx.clock.now()).catch(() => {});
    },
    Math.max(500, Math.floor(ctx.config.GENERATION_LEASE / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

class GenerationTimeout extends Error {}

async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GenerationTimeout(`Generation took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function rawMessage(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)) || 'Generation failed';
}

/**
 * One generation attempt: claim the demo with a fresh attempt token, run the generator outside any
 * transaction, then write everything in one transaction if the token still matches. Generator failures
 * are an outcome (draft with an error); database failures throw so that the queue retries.
 */
export async function runGeneration(ctx: GenerationContext, job: GenerateJob, jobId: string): Promise<void> {
  const { db } = ctx.database;
  const attempt = randomToken(12);
  const claimed = await db.transaction(async (tx) => {
    const demo = await repo.lockDemoById(tx, job.demoId);
    if (demo?.status !== 'generating') return undefined;
    // A job the lease sweep replaced (its worker was presumed dead) that pg-boss retries at its expiry.
    if (demo.generationJobId && demo.generationJobId !== jobId) return undefined;
    const now = ctx.clock.now();
    return repo.updateDemo(tx, demo.id, {
      generationStatus: 'running',
      generationStartedAt: now,
      generationAttempt: attempt,
      generationHeartbeatAt: now,
      generationJobId: jobId,
      generationError: null,
      generationErrorCode: null,
    });
  });
  if (!claimed) return;
  // The demo's cached details (demo-reads.service.ts) go in every process: its generation is running.
  await ctx.changes.announce(tags.demo(claimed.id));
  const releaseLease = holdLease(ctx, claimed.id, attempt);

  let result: GenerationResult | undefined;
  let failure: string | undefined;
  const log = pino({ level: ctx.config.LOG_LEVEL, name: 'generation' });
  try {
    if (!claimed.sourceUrl) throw new Error('This demo has no source_url to generate from');
    const timeoutMs = ctx.config.GENERATION_TIMEOUT;
    // The generator keeps within timeoutMs by itself; the grace lets it return what it has before this
    // backstop gives up on it.
    result = await withDeadline(ctx.generator({ url: claimed.sourceUrl, timeoutMs, captureMode: job.captureMode, ai: await ctx.aiSettingsFor?.(claimed.workspaceId) }), timeoutMs + DEADLINE_GRACE_MS);
    failure = checkResult(result);
  } catch (error) {
    failure = rawMessage(error);
    // The words on the demo explain; the raw error stays in the log for whoever runs the server.
    log.info({ demo_id: claimed.id, err: error }, 'generation failed');
  } finally {
    releaseLease();
  }

  await db.transaction(async (tx) => {
    const demo = await repo.lockDemoById(tx, job.demoId);
    // Deleted, or taken over by a newer attempt while this one was presumed dead.
    if (demo?.status !== 'generating' || demo.generationAttempt !== attempt) return;
    if (failure || !result) await recordFailure(ctx, tx, demo, explain(ctx, demo, failure ?? 'Generation failed'));
    else await recordSuccess(ctx, tx, demo, result, job.replaceTitle);
  });
  await ctx.changes.announce(tags.demo(job.demoId));
}

function checkResult(result: GenerationResult): string | undefined {
  if (result.steps.length === 0) return 'No steps could be made from this page';
  for (const [index, step] of result.steps.entries()) {
    if (step.image && !sniffImage(step.image.data)) return `Step ${index + 1} has an unreadable image`;
  }
  return undefined;
}

const explain = (ctx: Kernel, demo: DemoRow, raw: string) =>
  explainGenerationFailure(raw, { sourceUrl: demo.sourceUrl, timeoutMs: ctx.config.GENERATION_TIMEOUT });

async function recordFailure(ctx: Kernel, tx: Executor, demo: DemoRow, failure: GenerationFailure) {
  const now = ctx.clock.now();
  await repo.updateDemo(tx, demo.id, {
    status: 'draft',
    generationStatus: 'failed',
    generationError: failure.message,
    generationErrorCode: failure.code,
    generationFinishedAt: now,
    generationAttempt: null,
    generationHeartbeatAt: null,
    generationKeepEdited: false,
    updatedAt: now,
  });
  await emitEvent(tx, ctx.clock, {
    workspaceId: demo.workspaceId,
    kind: 'demo.generated',
    data: { demo_id: demo.id, status: 'failed', error: failure.message, error_code: failure.code, step_count: 0 },
  });
}

/** Generated boxes are clipped into the image; a box with nothing left is dropped. */
function clipBox(h: GeneratedHotspot) {
  const clamp = (v: number) => Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0));
  const x = clamp(h.x);
  const y = clamp(h.y);
  const width = Math.min(clamp(h.width), 1 - x);
  const height = Math.min(clamp(h.height), 1 - y);
  return width > 0 && height > 0 ? { x, y, width, height } : null;
}

function generatedAction(h: GeneratedHotspot, stepIds: string[]): { actionType: HotspotAction; actionTarget: string | null } {
  const target = h.action.target;
  if (h.action.type === 'goto') {
    const id = typeof target === 'number' ? stepIds[target - 1] : stepIds.find((s) => s === target);
    return id ? { actionType: 'goto', actionTarget: id } : { actionType: 'next', actionTarget: null };
  }
  if (h.action.type === 'url' && typeof target === 'string' && /^https?:\/\//i.test(target)) {
    return { actionType: 'url', actionTarget: target };
  }
  return { actionType: 'next', actionTarget: null };
}

async function recordSuccess(ctx: Kernel, tx: Executor, demo: DemoRow, result: GenerationResult, replaceTitle: boolean) {
  const now = ctx.clock.now();
  // Generating again replaces the steps, and only now that the new ones exist; with keep_edited_steps
  // the steps a person made or changed stay, and a new step for the same element as a kept one is dropped.
  const current = await repo.listSteps(tx, demo.id);
  const kept = demo.generationKeepEdited ? current.filter((s) => s.editedAt) : [];
  await repo.deleteSteps(
    tx,
    demo.id,
    current.filter((s) => !kept.includes(s)),
  );
  const keptHotspots = kept.length > 0 ? ((await repo.loadDemo(tx, demo.workspaceId, demo.id))?.hotspots ?? []) : [];
  const standIns = keptDuplicates(
    kept.map((s) => ({ id: s.id, pageUrl: s.pageUrl, hotspots: keptHotspots.filter((h) => h.stepId === s.id) })),
    result.steps,
  );
  // A dropped step's number leads to the kept step that stands in for it (goto targets count by number).
  const stepIds = result.steps.map((_, index) => standIns[index] ?? newId('step'));
  const hotspotRows = [];
  const stepRows = [];
  for (const [index, step] of result.steps.entries()) {
    if (standIns[index]) continue;
    const image = step.image ? await storeImage(tx, ctx.assetStore, demo, step.image.data, now) : undefined;
    const htmlAssetId = step.html ? (await storeHtml(tx, ctx.assetStore, demo, step.html, now)).id : null;
    stepRows.push({
      id: stepIds[index]!,
      demoId: demo.id,
      position: index + 1,
      title: step.title.slice(0, 200),
      description: step.description.slice(0, 5000),
      pageUrl: step.pageUrl || null,
      imageAssetId: image?.id ?? null,
      width: image?.width ?? (step.width || null),
      height: image?.height ?? (step.height || null),
      htmlAssetId,
      createdAt: now,
      updatedAt: now,
    });
    for (const h of step.hotspots) {
      const box = clipBox(h);
      if (!box) continue;
      hotspotRows.push({
        id: newId('hotspot'),
        stepId: stepIds[index]!,
        demoId: demo.id,
        ...box,
        selector: h.selector,
        label: h.label.slice(0, 200),
        tooltip: h.tooltip.slice(0, 2000),
        ...generatedAction(h, stepIds),
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  const fresh = await repo.insertSteps(tx, stepRows);
  await repo.insertHotspots(tx, hotspotRows);
  // A replaced step's page patches follow to the fresh capture of its page where their selectors still match.
  const carried = await carryPatches(
    current.filter((s) => !kept.includes(s)),
    result.steps,
    (index) => !!standIns[index],
    (html, patches) => ctx.documents.run('matchPagePatches', [html, patches], { field: 'patches', what: 'The new capture' }),
  );
  for (const [index, patches] of carried.byIndex) {
    if (patches.length > 0) await repo.updateStep(tx, stepIds[index]!, { patches });
  }
  if (carried.warnings.length > 0) ctx.log.info({ demoId: demo.id, dropped: carried.warnings }, 'regeneration dropped page patches');
  if (kept.length > 0) {
    await repo.renumber(tx, interleave(kept, fresh), now);
    await repo.retargetGotos(tx, demo.id, [...kept.map((s) => s.id), ...stepIds]);
  }
  await repo.updateDemo(tx, demo.id, {
    status: 'draft',
    title: replaceTitle && result.title.trim() ? result.title.trim().slice(0, 200) : demo.title,
    generationStatus: 'succeeded',
    generationError: null,
    generationErrorCode: null,
    generationFinishedAt: now,
    generationCaptureMode: result.captureMode,
    generationWriter: result.writer,
    generationAttempt: null,
    generationHeartbeatAt: null,
    generationKeepEdited: false,
  });
  await repo.touchAfterStepChange(tx, demo.id, now);
  await emitEvent(tx, ctx.clock, {
    workspaceId: demo.workspaceId,
    kind: 'demo.generated',
    data: {
      demo_id: demo.id,
      status: 'succeeded',
      step_count: stepRows.length,
      capture_mode: result.captureMode,
      writer: result.writer,
      warnings: [...result.warnings, ...carried.warnings],
    },
  });
}

/**
 * Kept steps go back to their old numbers where they can; the new steps fill the other places in their
 * order, and whatever is left (of either) follows at the end.
 */
export function interleave<T extends { id: string; position: number }>(kept: T[], fresh: T[]): T[] {
  const keptQueue = [...kept].sort((a, b) => a.position - b.position);
  const freshQueue = [...fresh].sort((a, b) => a.position - b.position);
  const out: T[] = [];
  while (keptQueue.length > 0 || freshQueue.length > 0) {
    const next = keptQueue[0];
    const takeKept = next && (next.position <= out.length + 1 || freshQueue.length === 0);
    out.push((takeKept ? keptQueue.shift() : freshQueue.shift())!);
  }
  return out;
}

/**
 * No demo stays `generating` forever: a demo whose job was never sent (a crash between commit and send)
 * gets one; a demo whose job is gone or finished without writing (retries spent) becomes a draft with an
 * error. Jobs still queued or running are left to the queue, whose expiry retries a dead worker's job.
 */
export async function sweepGenerations(ctx: Kernel): Promise<void> {
  const now = ctx.clock.now().getTime();
  for (const demo of await repo.listGenerating(ctx.database.db)) {
    if (!demo.generationJobId) {
      if (now - demo.updatedAt.getTime() < UNSENT_GRACE_MS) continue;
      const jobId = await ctx.queue.send(GENERATE_QUEUE, { demoId: demo.id, replaceTitle: false } satisfies GenerateJob);
      if (jobId) await repo.updateDemo(ctx.database.db, demo.id, { generationJobId: jobId });
      continue;
    }
    const job = await ctx.queue.boss.getJobById(GENERATE_QUEUE, demo.generationJobId, { includeArchive: true });
    if (job && ['created', 'retry', 'active'].includes(job.state)) continue;
    await ctx.database.db.transaction(async (tx) => {
      const current = await repo.lockDemoById(tx, demo.id);
      if (current?.status !== 'generating' || current.generationJobId !== demo.generationJobId) return;
      const output = (job?.output as { message?: string } | null)?.message;
      await recordFailure(ctx, tx, current, explain(ctx, current, `Generation did not finish: its job ended without a result${output ? ` (${output})` : ''}`));
    });
    await ctx.changes.announce(tags.demo(demo.id));
  }
}

/** A generation whose worker died this many times is given up: the page itself may be what kills it. */
const MAX_TAKEOVERS = 2;

/**
 * Hands each generation whose lease lapsed (its worker died mid-run) to a fresh job, in one transaction
 * with the demo's row: a new job id and no attempt token, so neither the dead attempt (should its worker
 * come back) nor the old job (should pg-boss retry it at expiry) can write. After MAX_TAKEOVERS the demo
 * becomes a draft with an error instead. Safe to run in every worker at once: the row lock and the re-check
 * let one of them take each generation over.
 */
export async function takeOverLapsedGenerations(ctx: Kernel): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - ctx.config.GENERATION_LEASE);
  let taken = 0;
  for (const lapsed of await repo.listLapsedGenerations(ctx.database.db, before)) {
    // Read before the transaction: PGlite runs one connection, which the transaction would hold.
    const old = lapsed.generationJobId
      ? await ctx.queue.boss.getJobById<GenerateJob>(GENERATE_QUEUE, lapsed.generationJobId, { includeArchive: true })
      : null;
    const replaced = await ctx.database.db.transaction(async (tx) => {
      const demo = await repo.lockDemoById(tx, lapsed.id);
      const heartbeat = demo?.generationHeartbeatAt;
      if (
        demo?.status !== 'generating' ||
        demo.generationStatus !== 'running' ||
        demo.generationJobId !== lapsed.generationJobId ||
        !heartbeat ||
        heartbeat >= before
      ) {
        return undefined;
      }
      const takeovers = (old?.data.takeovers ?? 0) + 1;
      if (takeovers > MAX_TAKEOVERS) {
        await recordFailure(ctx, tx, demo, explain(ctx, demo, `Generation did not finish: the worker running it stopped ${MAX_TAKEOVERS + 1} times`));
        return { oldJobId: demo.generationJobId };
      }
      const job: GenerateJob = { demoId: demo.id, replaceTitle: old?.data.replaceTitle ?? false, captureMode: old?.data.captureMode, takeovers };
      const jobId = await ctx.queue.send(GENERATE_QUEUE, job, {}, tx);
      await repo.updateDemo(tx, demo.id, {
        generationStatus: 'queued',
        generationAttempt: null,
        generationHeartbeatAt: null,
        generationJobId: jobId,
      });
      return { oldJobId: demo.generationJobId };
    });
    if (!replaced) continue;
    taken++;
    await ctx.changes.announce(tags.demo(lapsed.id));
    // The dead worker's job would stay active until pg-boss's expiry; its retry is fenced off, but needless.
    if (replaced.oldJobId) await ctx.queue.boss.cancel(GENERATE_QUEUE, replaced.oldJobId).catch(() => {});
  }
  return taken;
}
