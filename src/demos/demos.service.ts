import type { Actor } from '../audit/actor';
import type { AuthContext } from '../auth/permissions';
import { createDemo, type NewDemo } from './create-demo';
import { createDemoReads, type DemoReadsDeps } from './demo-reads.service';
import type { DemoWriteDeps } from './demo-writes';
import { deleteDemo } from './delete-demo';
import type { GenerationStartDeps } from './generation-start';
import { regenerateDemo } from './regenerate-demo';
import { type DemoChange, updateDemo } from './update-demo';

/** What the demos service is built from (the kernel, the generation limits, the share-links port). */
export type DemosDeps = DemoReadsDeps & DemoWriteDeps & GenerationStartDeps;

/**
 * Demos themselves: the reads (list, one demo, its rendered detail) and the writes, each in a file of its
 * own (create-demo.ts, update-demo.ts, delete-demo.ts, regenerate-demo.ts). A write answers the demo as
 * GET /v1/demos/:id would.
 *
 * @example
 * ```ts
 * const demos = createDemosService({ ...kernel, generationPerMinute: 10, generationConcurrency: 2, links, lockWorkspace });
 * const detail = await demos.create(auth, { title: 'Onboarding tour', type: 'interactive', generateWithAi: false });
 * await demos.update(auth, detail.demo.id, { status: 'published' }, actor);
 * ```
 */
export function createDemosService(deps: DemosDeps) {
  const reads = createDemoReads(deps);
  const { get } = reads;
  return {
    ...reads,
    create: async (auth: AuthContext, input: NewDemo) => get(auth, await createDemo(deps, auth, input)),
    update: async (auth: AuthContext, id: string, change: DemoChange, actor: Actor) => {
      await updateDemo(deps, auth, id, change, actor);
      return get(auth, id);
    },
    remove: (auth: AuthContext, id: string, actor: Actor) => deleteDemo(deps, auth, id, actor),
    regenerate: async (auth: AuthContext, id: string, options: { keepEditedSteps?: boolean } = {}) => {
      await regenerateDemo(deps, auth, id, options);
      return get(auth, id);
    },
  };
}

export type DemosService = ReturnType<typeof createDemosService>;
