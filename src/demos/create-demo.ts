import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import { invalid } from '../core/errors';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import { emitEvent } from '../events/outbox';
import type { CaptureMode } from '../generation/generation.types';
import { type ConfigurationPatch, storedConfiguration } from './demo-configuration.schemas';
import type { DemoWriteDeps } from './demo-writes';
import * as repo from './demos.repo';
import { admitGeneration, consumeGenerationBudget, enqueueGeneration, type GenerationStartDeps, generatingState } from './generation-start';

export interface NewDemo {
  title?: string;
  sourceUrl?: string;
  type: string;
  generateWithAi: boolean;
  /** How to capture `sourceUrl` when generating; absent: automatic. */
  captureMode?: CaptureMode;
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

/**
 * POST /v1/demos: a draft demo, or one that starts generating from `sourceUrl` (its job queued in the same
 * transaction). Returns the new demo's id.
 */
export async function createDemo(deps: DemoWriteDeps & GenerationStartDeps, auth: AuthContext, input: NewDemo) {
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
  if (input.generateWithAi) await consumeGenerationBudget(deps, auth.workspaceId);
  const now = deps.clock.now();
  const configuration = storedConfiguration(undefined, input.configuration ?? {});
  const replaceTitle = !input.title;
  const demo = await deps.database.db.transaction(async (tx) => {
    if (input.generateWithAi) await admitGeneration(deps, tx, auth.workspaceId);
    const created = await insertCreatedDemo(tx, deps.clock, {
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
    if (input.generateWithAi) await enqueueGeneration(deps, tx, created.id, { demoId: created.id, replaceTitle, captureMode: input.captureMode });
    return created;
  });
  return demo.id;
}
