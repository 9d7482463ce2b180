// The experiments' side of viewing's LinkArms port: which arm of a link's A/B test a viewer is served.
import { createHash } from 'node:crypto';
import { type Changes, tags } from '../core/changes';
import { GuardedCache } from '../core/guarded-cache';
import type { Database } from '../db/client';
import type { LinkArms, ServedArm } from '../viewing/link-arms';
import * as repo from './experiments.repo';

export interface WeightedArm {
  id: string;
  weight: number;
}

/**
 * The arm of `arms` (in their order) for `key` in experiment `salt`: the SHA-256 of both, read as a number
 * in [0, 1), falls in one arm's share of the total weight. The same key always gets the same arm while
 * the arms and weights stay; keys spread over the arms in proportion to their weights.
 *
 * @example
 * pickArm('exp_1', 'ana@acme.test', [{ id: 'a', weight: 1 }, { id: 'b', weight: 3 }]); // 'b' three times in four
 */
export function pickArm(salt: string, key: string, arms: readonly WeightedArm[]): string | undefined {
  const total = arms.reduce((sum, arm) => sum + arm.weight, 0);
  if (total <= 0) return undefined;
  // 48 bits: exact in a double, and far finer than any weight split.
  const point = (Number.parseInt(createHash('sha256').update(`${salt}\n${key}`).digest('hex').slice(0, 12), 16) / 2 ** 48) * total;
  let edge = 0;
  for (const arm of arms) {
    edge += arm.weight;
    if (point < edge) return arm.id;
  }
  return arms.at(-1)?.id;
}

/** A link's newest experiment as served: the arms a viewer may get now, and the winner a stopped one keeps. */
export interface Serving {
  experimentId: string;
  status: 'running' | 'stopped';
  /** Arms whose demo is published and whose version exists, in order. */
  live: ServedArm[];
  weights: Map<string, number>;
  winnerArmId: string | null;
  /** Every arm's demo, live or not: a demo published again must be seen too. */
  demoIds: string[];
}

/** What an arm serves, or undefined when it serves nothing now (its demo deleted or unpublished, its version gone). */
export function liveArm(arm: repo.ServingArm): ServedArm | undefined {
  if (!arm.demoId || arm.demoStatus !== 'published' || arm.version === null || arm.stepCount === null) return undefined;
  return { armId: arm.armId, experimentId: arm.experimentId, demoId: arm.demoId, version: arm.version, stepCount: arm.stepCount, pinned: arm.pinned };
}

/**
 * Serves arms from a cache of each link's newest experiment, tagged with the link and every arm's demo, so
 * a change to the experiment (announced as the link's) or to an arm's demo (published, unpublished,
 * deleted) is seen at the next request. A link without experiment is cached too (as null).
 *
 * @example
 * const linkArms = createLinkArms(kernel);
 * const arm = await linkArms.serve(shareId, session.armId, session.viewerEmail ?? session.anonymousId);
 */
export function createLinkArms(deps: { database: Pick<Database, 'db'>; changes: Changes }): LinkArms & { close(): void } {
  const cache = new GuardedCache<Serving | null>(deps.changes, 30_000, 10_000);

  async function load(shareId: string): Promise<Serving | null> {
    const arms = await repo.servingArms(deps.database.db, shareId);
    const first = arms[0];
    if (!first) return null;
    return {
      experimentId: first.experimentId,
      status: first.status,
      live: arms.flatMap((a) => liveArm(a) ?? []),
      weights: new Map(arms.map((a) => [a.armId, a.weight])),
      winnerArmId: first.winnerArmId,
      demoIds: [...new Set(arms.flatMap((a) => (a.demoId ? [a.demoId] : [])))],
    };
  }

  async function serve(shareId: string, sticky: string | null, key: string | null): Promise<ServedArm | undefined> {
    const serving = await cache.load(
      shareId,
      (s) => [tags.share(shareId), ...(s ? s.demoIds.map((id) => tags.demo(id)) : [])],
      () => load(shareId),
    );
    if (!serving) return undefined;
    if (serving.status === 'stopped') return serving.live.find((a) => a.armId === serving.winnerArmId);
    const kept = sticky ? serving.live.find((a) => a.armId === sticky) : undefined;
    if (kept) return kept;
    if (key === null) return serving.live[0];
    // A new viewer, or one whose arm no longer serves (its demo deleted or unpublished): by weight among the live arms.
    const picked = pickArm(
      serving.experimentId,
      key,
      serving.live.map((a) => ({ id: a.armId, weight: serving.weights.get(a.armId) ?? 0 })),
    );
    return serving.live.find((a) => a.armId === picked);
  }

  return { serve, close: () => cache.close() };
}
