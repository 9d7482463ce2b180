// What the viewing domain asks of A/B tests: which arm a viewer session is served on a link. Declared here so that
// viewing never imports experiments; experiments/experiment-serving.ts implements it.
import type { LinkState } from './viewer-cache';

/** The demo (and version) a viewer is served on a link under an experiment, instead of the link's own. */
export interface ServedArm {
  armId: string;
  experimentId: string;
  demoId: string;
  /** The published version served (the arm's pinned one, or its demo's newest) and its number of steps. */
  version: number;
  stepCount: number;
  /** The version is pinned by the arm: the payload is built from it, not from the newest. */
  pinned: boolean;
}

/**
 * Port: the arm of a link a viewer is served. The experiments module provides it
 * (`services.experiments.linkArms`); the viewing module reads it when called, as experiments is built after it.
 *
 * @example
 * const arm = await linkArms.serve(link.share.id, session?.armId ?? null, session ? session.viewerEmail ?? session.anonymousId : null);
 * if (arm) link = servedLink(link, arm); // payload, assets and events follow the arm
 */
export interface LinkArms {
  /**
   * The arm for this viewer: `sticky` (the arm the session was given before) while it is still served,
   * else one picked by weight from `key` (a stable viewer key; null: no session, the first arm). Undefined:
   * the link serves its own demo (no experiment, or a stopped one without a winner, or no arm left to serve).
   */
  serve(shareId: string, sticky: string | null, key: string | null): Promise<ServedArm | undefined>;
}

/** The link as one viewer is served it: the arm's demo, version and step count in place of the link's own. */
export function servedLink(link: LinkState, arm: ServedArm): LinkState {
  return {
    ...link,
    share: { ...link.share, demoId: arm.demoId },
    demoStatus: 'published',
    version: arm.version,
    stepCount: arm.stepCount,
    arm: { id: arm.armId, experimentId: arm.experimentId, pinned: arm.pinned },
  };
}
