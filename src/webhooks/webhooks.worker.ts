import { performance } from 'node:perf_hooks';
import { and, eq, gt, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Clock } from '../core/clock';
import { unseal } from '../core/crypto';
import { BlockedUrlError, type SafeFetch } from '../core/net/safe-fetch';
import type { Database } from '../db/client';
import { EVENTS_CHANNEL } from '../events/outbox';
import type { Mailer } from '../mail/mailer';
import { dispatchBatch } from './webhooks.dispatcher';
import * as repo from './webhooks.repo';
import { type AttemptVerdict, judgeResponse, retryDelay } from './webhooks.retry';
import { signatureHeaders } from './webhooks.signing';
import { webhookAttempts, webhookDeliveries, webhooks } from './webhooks.tables';

/** What the log keeps of a response body. */
export const EXCERPT_BYTES = 2048;
/** Shortest idle sleep, so rows another worker holds for an instant do not make this one spin. */
const MIN_SLEEP_MS = 20;
const LEASE_MARGIN_MS = 30_000;

export interface DeliveryWorkerDeps {
  database: Database;
  clock: Clock;
  net: SafeFetch;
  mailer: Mailer;
  sealingKey: Buffer;
  appUrl: string;
  log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  settings: {
    retryDelays: number[];
    timeoutMs: number;
    disableAfterMs: number;
    concurrency: number;
    pollIntervalMs: number;
  };
}

/**
 * The delivery loop of one worker process: fans the outbox out (dispatchBatch), claims due deliveries
 * and attempts them, up to `concurrency` at once. It wakes on the NOTIFY that emitEvent sends at commit,
 * when an attempt ends, when the next retry falls due, and every poll interval in case a notification
 * was missed. Everything it knows lives in the database, so any number of these run side by side and a
 * killed one loses nothing: its claims are taken over when their lease ends.
 */
export class DeliveryWorker {
  private stopped = false;
  private woken = false;
  private release: (() => void) | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private loop: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly deps: DeliveryWorkerDeps) {}

  /**
   * A claim is held this long; past it the attempt is presumed lost with its worker and is taken over.
   * The request is bounded by the timeout; the margin covers recording the outcome on a slow database.
   */
  private get leaseMs() {
    return this.deps.settings.timeoutMs + LEASE_MARGIN_MS;
  }

  async start(): Promise<void> {
    this.unlisten = await this.deps.database.listen(EVENTS_CHANNEL, () => this.wake());
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.unlisten?.().catch(() => {});
    await this.loop;
    await Promise.allSettled([...this.inFlight]);
  }

  wake(): void {
    this.woken = true;
    this.release?.();
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.release = undefined;
        resolve();
      };
      const timer = setTimeout(done, Math.max(MIN_SLEEP_MS, ms));
      this.release = done;
    });
  }

  private async run(): Promise<void> {
    const { database, clock, settings } = this.deps;
    while (!this.stopped) {
      this.woken = false;
      try {
        const now = clock.now();
        const dispatched = await dispatchBatch(database.db, now, settings.retryDelays.length + 1);
        const free = settings.concurrency - this.inFlight.size;
        const claims = free > 0 ? await repo.claimDue(database.db, now, new Date(now.getTime() + this.leaseMs), free) : [];
        for (const claim of claims) this.track(claim);
        if (dispatched > 0 || claims.length > 0) continue;
        let wait = settings.pollIntervalMs;
        if (free > 0) {
          const due = await repo.nextDueAt(database.db);
          if (due) wait = Math.min(wait, due.getTime() - clock.now().getTime());
        }
        await this.sleep(wait);
      } catch (error) {
        if (this.stopped) break;
        this.deps.log.error({ err: error }, 'webhook delivery loop failed; retrying');
        await this.sleep(settings.pollIntervalMs);
      }
    }
  }

  private track(claim: repo.ClaimedDelivery) {
    const running: Promise<void> = this.attempt(claim)
      .catch((error) => this.deps.log.error({ err: error, delivery_id: claim.id }, 'webhook attempt failed'))
      .finally(() => {
        this.inFlight.delete(running);
        this.wake();
      });
    this.inFlight.add(running);
  }

  private async attempt(claim: repo.ClaimedDelivery): Promise<void> {
    const { database, clock, net, sealingKey, settings } = this.deps;
    const { db } = database;
    const hook = await repo.findWebhookById(db, claim.webhookId);
    // Deleted meanwhile: its deliveries went with it.
    if (!hook) return;
    if (claim.takenOver) await this.recordLost(claim, hook.url);
    if (claim.attempt > claim.maxAttempts) {
      await this.finish(claim, { status: 'failed', lastError: 'the last attempt was lost with its worker' });
      return;
    }
    if (!hook.active) {
      await db
        .update(webhookDeliveries)
        .set({
          status: 'cancelled',
          attempts: sql`${webhookDeliveries.attempts} - 1`,
          lockedUntil: null,
          nextAttemptAt: null,
          completedAt: clock.now(),
          lastError: 'the webhook is disabled',
        })
        .where(and(eq(webhookDeliveries.id, claim.id), eq(webhookDeliveries.attempts, claim.attempt)));
      return;
    }

    const startedAt = clock.now();
    const secrets = [unseal(sealingKey, hook.secretSealed)];
    if (hook.previousSecretSealed && hook.previousSecretExpiresAt && hook.previousSecretExpiresAt > startedAt) {
      secrets.push(unseal(sealingKey, hook.previousSecretSealed));
    }
    const body = Buffer.from(claim.body, 'utf8');
    const headers = signatureHeaders({ messageId: claim.eventId, eventKind: claim.eventKind, body, secrets, sentAt: startedAt });

    const t0 = performance.now();
    let verdict: AttemptVerdict;
    let response: { status: number; headers: Record<string, string>; excerpt: string; truncated: boolean } | undefined;
    try {
      // The guard checks the address again at connect time: a URL that was public at creation may not be now.
      const res = await net.fetch(hook.url, {
        method: 'POST',
        headers,
        body,
        timeoutMs: settings.timeoutMs,
        maxBytes: EXCERPT_BYTES,
        maxRedirects: 0,
      });
      response = { status: res.status, headers: res.headers, excerpt: res.body.toString('utf8'), truncated: res.truncated };
      verdict = judgeResponse(res.status, res.headers, clock.now());
    } catch (error) {
      verdict = { kind: 'retry', reason: describeError(error, settings.timeoutMs), retryAfterMs: null };
    }
    const durationMs = Math.round(performance.now() - t0);
    const now = clock.now();

    const attemptRow: typeof webhookAttempts.$inferInsert = {
      deliveryId: claim.id,
      attempt: claim.attempt,
      webhookId: hook.id,
      startedAt,
      durationMs,
      outcome: verdict.kind === 'succeeded' ? 'succeeded' : 'failed',
      statusCode: response?.status ?? null,
      error: verdict.kind === 'succeeded' ? null : verdict.reason,
      url: hook.url,
      requestHeaders: headers,
      responseHeaders: response?.headers ?? null,
      responseExcerpt: response?.excerpt ?? null,
      responseTruncated: response?.truncated ?? false,
    };

    let next: { status: 'succeeded' | 'failed' | 'pending'; nextAttemptAt: Date | null };
    if (verdict.kind === 'succeeded') next = { status: 'succeeded', nextAttemptAt: null };
    else if (verdict.kind === 'gone') next = { status: 'failed', nextAttemptAt: null };
    else {
      const scheduled = retryDelay(claim.attempt, settings.retryDelays);
      const delay = scheduled === null ? null : (verdict.retryAfterMs ?? scheduled);
      next = delay === null ? { status: 'failed', nextAttemptAt: null } : { status: 'pending', nextAttemptAt: new Date(now.getTime() + delay) };
    }

    const disabled = await db.transaction(async (tx) => {
      await tx.insert(webhookAttempts).values(attemptRow).onConflictDoNothing();
      // Only the holder of this attempt moves the delivery on; after a lease takeover the newer attempt owns it.
      const moved = await tx
        .update(webhookDeliveries)
        .set({
          status: next.status,
          nextAttemptAt: next.nextAttemptAt,
          lockedUntil: null,
          lastStatusCode: response?.status ?? null,
          lastError: attemptRow.error,
          completedAt: next.status === 'pending' ? null : now,
        })
        .where(
          and(
            eq(webhookDeliveries.id, claim.id),
            eq(webhookDeliveries.attempts, claim.attempt),
            eq(webhookDeliveries.status, 'delivering'),
          ),
        )
        .returning({ id: webhookDeliveries.id });
      if (moved.length === 0) return null;
      if (verdict.kind === 'succeeded') {
        // Every success would otherwise write the one webhook row, and all concurrent attempts of a
        // webhook would queue on its lock: touch it only to reset failures, or once a second.
        await tx
          .update(webhooks)
          .set({ lastDeliveryAt: now, consecutiveFailures: 0, failingSince: null })
          .where(
            and(
              eq(webhooks.id, hook.id),
              or(
                gt(webhooks.consecutiveFailures, 0),
                isNotNull(webhooks.failingSince),
                isNull(webhooks.lastDeliveryAt),
                lt(webhooks.lastDeliveryAt, new Date(now.getTime() - 1_000)),
              ),
            ),
          );
        return null;
      }
      const [counted] = await tx
        .update(webhooks)
        .set({
          lastDeliveryAt: now,
          consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
          failingSince: sql`coalesce(${webhooks.failingSince}, ${now})`,
        })
        .where(eq(webhooks.id, hook.id))
        .returning({ failingSince: webhooks.failingSince });
      const failingFor = counted?.failingSince ? now.getTime() - new Date(counted.failingSince).getTime() : 0;
      const reason: 'gone' | 'failing' | null =
        verdict.kind === 'gone' ? 'gone' : failingFor >= settings.disableAfterMs ? 'failing' : null;
      if (!reason) return null;
      // The condition on active makes one worker, and one e-mail, do the disabling.
      const [off] = await tx
        .update(webhooks)
        .set({ active: false, disabledAt: now, disabledReason: reason, updatedAt: now })
        .where(and(eq(webhooks.id, hook.id), eq(webhooks.active, true), isNull(webhooks.disabledAt)))
        .returning();
      return off ? { hook: off, reason } : null;
    });
    if (disabled) await this.notifyDisabled(disabled.hook, disabled.reason);
  }

  private async recordLost(claim: repo.ClaimedDelivery, url: string) {
    const now = this.deps.clock.now();
    await this.deps.database.db
      .insert(webhookAttempts)
      .values({
        deliveryId: claim.id,
        attempt: claim.attempt - 1,
        webhookId: claim.webhookId,
        startedAt: now,
        outcome: 'lost',
        error: 'the worker stopped before recording the outcome; the receiver may have received it',
        url,
        requestHeaders: {},
      })
      .onConflictDoNothing();
  }

  private async finish(claim: repo.ClaimedDelivery, outcome: { status: 'failed'; lastError: string }) {
    await this.deps.database.db
      .update(webhookDeliveries)
      .set({ ...outcome, attempts: claim.maxAttempts, lockedUntil: null, nextAttemptAt: null, completedAt: this.deps.clock.now() })
      .where(and(eq(webhookDeliveries.id, claim.id), eq(webhookDeliveries.attempts, claim.attempt)));
  }

  private async notifyDisabled(hook: repo.WebhookRow, reason: 'failing' | 'gone') {
    const { database, mailer, appUrl, log, settings } = this.deps;
    const why =
      reason === 'gone'
        ? 'its receiver answered 410 Gone, which asks senders to stop'
        : `every delivery to it has failed for ${humanDuration(settings.disableAfterMs)} or more`;
    const emails = await repo.adminEmails(database.db, hook.workspaceId);
    for (const to of emails) {
      await mailer
        .send({
          to,
          subject: 'A Demoshare webhook was disabled',
          text:
            `The webhook ${hook.id} (${hook.url}) was disabled because ${why}.\n\n` +
            `No further events are sent to it. Fix the receiver, then re-enable the webhook in Settings → Webhooks: ${appUrl}/settings/webhooks/${hook.id}\n`,
        })
        .catch((error) => log.warn({ err: error, webhook_id: hook.id }, 'could not send the webhook-disabled e-mail'));
    }
  }
}

function describeError(error: unknown, timeoutMs: number): string {
  if (error instanceof BlockedUrlError) return error.message;
  const err = error as Error & { code?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return `timed out after ${timeoutMs / 1000} s`;
  if (err?.cause instanceof BlockedUrlError) return err.cause.message;
  const code = err?.code ?? err?.cause?.code;
  const message = err?.cause?.message ?? err?.message ?? String(error);
  return code ? `${code}: ${message}` : `network error: ${message}`;
}

function humanDuration(ms: number): string {
  for (const [unit, size] of [['days', 86_400_000], ['hours', 3_600_000], ['minutes', 60_000]] as const) {
    if (ms >= size) return `${Math.round(ms / size)} ${unit}`;
  }
  return `${Math.round(ms / 1000)} seconds`;
}
