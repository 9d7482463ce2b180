import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { AppError, conflict, invalid, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { RateLimits } from '../core/rate-limit';
import type { Database, Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import type { JobQueue } from '../jobs/queue';
import { createDemoReads, type DemoLinks } from './demo-reads.service';
import { writeVersion } from './demo-versions.service';
import * as repo from './demos.repo';
import { type ConfigurationPatch, resolveConfiguration, storedConfiguration } from './demo-configuration.schemas';
import type { DemoStatus } from './demos.tables';

export const GENERATE_QUEUE = 'demos.generate';

export interface GenerateJob {
  demoId: string;
  /** The title was made up from the address: replace it with the page's own. */
  replaceTitle: boolean;
  /** How many times a worker died running this generation (its lease lapsed) before this job was sent. */
  takeovers?: number;
}

export interface DemosDeps {
  database: Database;
  clock: Clock;
  queue: Pick<JobQueue, 'send'>;
  rateLimits: Pick<RateLimits, 'consume'>;
  generationPerMinute: number;
  generationConcurrency: number;
  log: { warn(obj: object, msg: string): void };
  /** The demos' share links: the shares domain answers, so demos never read its tables. */
  links: DemoLinks;
  /** Locks the workspace row for the rest of `tx`: the workspaces domain's `reader.lock`, injected. */
  lockWorkspace: (tx: Executor, workspaceId: string) => Promise<unknown>;
  /** Announces the demos' changes, and feeds the cached details (demo-reads.service.ts). */
  changes: Changes;
}

/** Which status a PATCH may move a demo to, from each status. `generating` is left only by its job. */
const TRANSITIONS: Record<DemoStatus, readonly DemoStatus[]> = {
  generating: [],
  draft: ['published', 'archived'],
  published: ['draft', 'archived'],
  archived: ['draft'],
};

export interface NewDemo {
  title?: string;
  sourceUrl?: string;
  type: string;
  generateWithAi: boolean;
  configuration?: ConfigurationPatch;
}

export interface DemoChange {
  title?: string;
  status?: 'draft' | 'published' | 'archived';
  configuration?: ConfigurationPatch;
}

/** "example.com/pricing" from "https://www.example.com/pricing?x=1": a readable stand-in until the page's title. */
export function titleFromUrl(url: string): string {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/\/+$/, '');
  return `${parsed.hostname.replace(/^www\./, '')}${path}`.slice(0, 200);
}

/** Inserts a demo and records demo.created, in the caller's transaction (POST /v1/demos, recordings). */
export async function insertCreatedDemo(tx: Executor, clock: Clock, row: Parameters<typeof repo.insertDemo>[1]) {
  const created = await repo.insertDemo(tx, row);
  await emitEvent(tx, clock, {
    workspaceId: created.workspaceId,
    kind: 'demo.created',
    data: {
      demo_id: created.id,
      title: created.title,
      status: created.status,
      source_url: created.sourceUrl,
      generate_with_ai: created.generateWithAi,
    },
  });
  return created;
}

export function createDemosService(deps: DemosDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  const { list, get, getRendered } = createDemoReads(deps);

  /**
   * Spends one unit of the workspace's generation budget and refuses when too many generations already
   * run. The workspace row lock makes the count-then-start check hold under concurrent requests.
   */
  async function admitGeneration(tx: Executor, workspaceId: string) {
    await deps.lockWorkspace(tx, workspaceId);
    const running = await repo.countGenerating(tx, workspaceId);
    if (running >= deps.generationConcurrency) {
      throw new AppError(
        'rate_limited',
        `${running} demos of this workspace are being generated already: wait for one to finish`,
        { headers: { 'retry-after': '30' } },
      );
    }
  }

  async function consumeBudget(workspaceId: string) {
    await deps.rateLimits.consume('generation', { points: deps.generationPerMinute, duration: 60 }, workspaceId);
  }

  const generatingState = (now: Date, keepEdited = false) => ({
    status: 'generating' as const,
    generationKeepEdited: keepEdited,
    generationStatus: 'queued' as const,
    generationError: null,
    generationStartedAt: null,
    generationFinishedAt: null,
    generationJobId: null,
    generationAttempt: null,
    updatedAt: now,
  });

  /**
   * Queues the generation in the transaction that starts it, so the job commits with the demo's
   * `generating` state or not at all. It runs in a savepoint: should the queue refuse, the change still
   * commits and the sweep sends the job later.
   */
  async function enqueue(tx: Executor, demoId: string, job: GenerateJob) {
    try {
      const jobId = await tx.transaction((savepoint) => deps.queue.send(GENERATE_QUEUE, job, {}, savepoint));
      if (jobId) await repo.updateDemo(tx, demoId, { generationJobId: jobId });
    } catch (error) {
      deps.log.warn({ err: error, demo_id: demoId }, 'could not enqueue generation; the sweep will send it');
    }
  }

  async function create(auth: AuthContext, input: NewDemo) {
    if (input.generateWithAi && !input.sourceUrl) {
      throw invalid('source_url is required to generate a demo', [
        { field: 'source_url', message: 'required when generate_with_ai is true' },
      ]);
    }
    if (!input.title && !input.generateWithAi) {
      throw invalid('title is required (or set generate_with_ai to take the page title)', [
        { field: 'title', message: 'required' },
      ]);
    }
    if (input.generateWithAi) await consumeBudget(auth.workspaceId);
    const now = clock.now();
    const configuration = storedConfiguration(undefined, input.configuration ?? {});
    const replaceTitle = !input.title;
    const demo = await db.transaction(async (tx) => {
      if (input.generateWithAi) await admitGeneration(tx, auth.workspaceId);
      const created = await insertCreatedDemo(tx, clock, {
        id: newId('demo'),
        workspaceId: auth.workspaceId,
        title: input.title ?? titleFromUrl(input.sourceUrl!),
        sourceUrl: input.sourceUrl ?? null,
        type: input.type,
        status: 'draft',
        configuration,
        generateWithAi: input.generateWithAi,
        createdById: auth.memberId,
        createdAt: now,
        updatedAt: now,
        ...(input.generateWithAi ? generatingState(now) : {}),
      });
      if (input.generateWithAi) await enqueue(tx, created.id, { demoId: created.id, replaceTitle });
      return created;
    });
    return get(auth, demo.id);
  }

  async function update(auth: AuthContext, id: string, change: DemoChange, actor: Actor) {
    const changed = await db.transaction(async (tx) => {
      const demo = await repo.lockDemo(tx, auth.workspaceId, id);
      if (!demo) throw notFound('Demo');
      const now = clock.now();
      const patch: Parameters<typeof repo.updateDemo>[2] = {};
      const changed: string[] = [];
      if (change.title !== undefined && change.title !== demo.title) {
        patch.title = change.title;
        changed.push('title');
      }
      if (change.configuration !== undefined) {
        const before = demo.configuration;
        const after = storedConfiguration(before, change.configuration);
        // Compared resolved (key order and defaults aside), and by whether the colour is the demo's own.
        const same =
          JSON.stringify(resolveConfiguration(before)) === JSON.stringify(resolveConfiguration(after)) &&
          before.theme_color === after.theme_color;
        if (!same) {
          patch.configuration = after;
          changed.push('configuration');
        }
      }
      let published = false;
      if (change.status !== undefined && change.status !== demo.status) {
        const from = demo.status as DemoStatus;
        if (from === 'generating') {
          throw conflict('This demo is being generated: its status changes to draft when generation finishes');
        }
        if (!TRANSITIONS[from].includes(change.status)) {
          throw conflict(
            `A demo cannot go from ${from} to ${change.status}` +
              (from === 'archived' ? ': move it back to draft first' : ''),
          );
        }
        if (change.status === 'published') {
          const steps = await repo.listSteps(tx, demo.id);
          if (steps.length === 0) throw conflict('A demo needs at least one step to be published');
          patch.publishedAt = now;
          published = true;
        } else {
          patch.publishedAt = null;
        }
        patch.status = change.status;
        changed.push('status');
      }
      if (changed.length === 0) return false;
      patch.updatedAt = now;
      const updated = await repo.updateDemo(tx, demo.id, patch);
      // Viewers are served the version, never the draft: publishing freezes the draft (title included).
      const version = published ? await writeVersion(tx, updated!, auth.userId, now) : undefined;
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'demo.updated',
        data: { demo_id: demo.id, changes: changed, status: updated!.status, title: updated!.title },
      });
      if (published) {
        await emitEvent(tx, clock, {
          workspaceId: auth.workspaceId,
          kind: 'demo.published',
          data: { demo_id: demo.id, title: updated!.title, published_at: now.toISOString(), version: version!.number },
        });
      }
      // Publishing and unpublishing change who can see a demo: they are audited, edits are not.
      if (changed.includes('status') && (published || demo.status === 'published')) {
        await recordAudit(tx, clock, actor, {
          workspaceId: auth.workspaceId,
          action: published ? 'demo.published' : 'demo.unpublished',
          target: { type: 'demo', id: demo.id, label: updated!.title },
          changes: { status: { from: demo.status, to: updated!.status }, ...(version ? { version: version.number } : {}) },
        });
      }
      return true;
    });
    if (changed) await deps.changes.announce(tags.demo(id));
    return get(auth, id);
  }

  async function remove(auth: AuthContext, id: string, actor: Actor) {
    await db.transaction(async (tx) => {
      const demo = await repo.lockDemo(tx, auth.workspaceId, id);
      if (!demo) throw notFound('Demo');
      // Steps, hotspots, assets and share links go by ON DELETE CASCADE.
      await repo.deleteDemo(tx, demo.id);
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'demo.deleted',
        data: { demo_id: demo.id, title: demo.title },
      });
      await recordAudit(tx, clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'demo.deleted',
        target: { type: 'demo', id: demo.id, label: demo.title },
        changes: { status: demo.status },
      });
    });
    await deps.changes.announce(tags.demo(id));
  }

  /**
   * POST /v1/demos/:id/generate: captures source_url again; the steps are replaced when it succeeds
   * (all of them, or only those nobody edited when `keepEditedSteps`).
   */
  async function regenerate(auth: AuthContext, id: string, options: { keepEditedSteps?: boolean } = {}) {
    const current = await repo.findDemo(db, auth.workspaceId, id);
    if (!current) throw notFound('Demo');
    if (current.demo.status === 'generating') throw conflict('This demo is being generated already');
    if (current.demo.status === 'published') {
      throw conflict('Unpublish the demo before generating it again: generation replaces its steps');
    }
    if (!current.demo.sourceUrl) {
      throw conflict('This demo has no source_url to generate from');
    }
    await consumeBudget(auth.workspaceId);
    await db.transaction(async (tx) => {
      await admitGeneration(tx, auth.workspaceId);
      const demo = await repo.lockDemo(tx, auth.workspaceId, id);
      if (!demo) throw notFound('Demo');
      if (demo.status !== current.demo.status) throw conflict('The demo changed meanwhile: try again');
      const now = clock.now();
      await repo.updateDemo(tx, demo.id, generatingState(now, options.keepEditedSteps ?? false));
      await emitEvent(tx, clock, {
        workspaceId: auth.workspaceId,
        kind: 'demo.updated',
        data: { demo_id: demo.id, changes: ['status'], status: 'generating', title: demo.title },
      });
      await enqueue(tx, demo.id, { demoId: demo.id, replaceTitle: false });
    });
    await deps.changes.announce(tags.demo(id));
    return get(auth, id);
  }

  return { list, get, getRendered, create, update, remove, regenerate };
}

export type DemosService = ReturnType<typeof createDemosService>;
