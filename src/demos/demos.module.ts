import { defineModule } from '../module';
import { chaptersRoutes } from './chapters.routes';
import { type ChaptersService, createChaptersService } from './chapters.service';
import { createDemoVersions, type DemoVersionsService } from './demo-versions.service';
import { demoVersionsRoutes } from './demo-versions.routes';
import { registerDemosJobs } from './demos.jobs';
import { createDemoReader, type DemoReader } from './demos.reader';
import { demosRoutes } from './demos.routes';
import { createPagePatches, type PagePatchesService } from './page-patches.service';
import { pagePatchesRoutes } from './page-patches.routes';
import { demoUrlsOf } from './demos.schemas';
import { createRedactions, type RedactionsService } from './redactions.service';
import { redactionsRoutes } from './redactions.routes';
import { createDemosService, type DemosService } from './demos.service';
import { stepsRoutes } from './steps.routes';
import { createStepImports, type StepImportsService } from './step-imports.service';
import { createDemoDocuments, type DemoDocumentsService } from './demo-documents';
import { createStepsService, type StepsService } from './steps.service';
import { createStepRewrites, type StepRewritesService } from './rewrite-step';
import { rewriteStepRoutes } from './rewrite-step.routes';
import type { AiSettingsFor } from '../ai/ai.service';
import { users } from '../accounts/accounts.tables';
import { workspaces } from '../workspaces/workspaces.tables';

declare module '../module' {
  interface Services {
    /** `reader` is what other modules may ask of demos. */
    demos: {
      demos: DemosService;
      steps: StepsService;
      /** The chapters of a demo's story (chapters.service.ts). */
      chapters: ChaptersService;
      versions: DemoVersionsService;
      reader: DemoReader;
      /** Steps made elsewhere (recordings), written in the caller's transaction. */
      imports: StepImportsService;
      /** Demos whole, in and out (demo files: export, import, push by key; demo-documents.ts). */
      documents: DemoDocumentsService;
      redactions: RedactionsService;
      /** The editor's Rewrite: a suggestion from the workspace's model (rewrite-step.ts). */
      rewrites: StepRewritesService;
      /** The model a workspace writes with (the ai module's), for generation and Rewrite. */
      aiSettingsFor: AiSettingsFor;
      /** Snapshots served with their page patches (the editor's; `snapshots` is the viewer's too) and images for patches. */
      pagePatches: PagePatchesService;
    };
  }
}

/**
 * Demos, their steps, hotspots and assets, their versions, redactions and generation. Other modules read
 * demos through `reader` (demos.reader.ts) and write imported steps through `imports`.
 *
 * @example
 * ```ts
 * // app.ts lists it once; a module that needs demos names it and gets its services:
 * export const sharesModule = defineModule({ name: 'shares', needs: ['demos'], create: (kernel, { demos }) => ({
 *   shares: createSharesService({ ...kernel, demos: demos.reader }),
 * }) });
 * ```
 */
export const demosModule = defineModule({
  name: 'demos',
  owns: {
    tables: 'demos.tables.ts',
    ids: ['demo', 'step', 'hotspot', 'asset', 'demoVersion', 'chapter'],
    events: ['demo.created', 'demo.updated', 'demo.published', 'demo.deleted', 'demo.generated'],
    permissions: ['demos.read', 'demos.write', 'demos.delete'],
  },
  reads: { tables: [users, workspaces] },
  // share_url is the shares module's answer, read when a demo is (shares is built after demos).
  needs: ['shares', 'workspaces', 'ai'],
  create: (kernel, deps) => ({
    demos: createDemosService({
      ...kernel,
      generationPerMinute: kernel.config.GENERATION_PER_MINUTE,
      generationConcurrency: kernel.config.GENERATION_CONCURRENCY,
      get links() {
        return deps.shares.links;
      },
      // The workspace row is the workspaces domain's; generation admission locks it through its reader.
      lockWorkspace: deps.workspaces.reader.lock,
    }),
    steps: createStepsService(kernel),
    chapters: createChaptersService(kernel),
    versions: createDemoVersions(kernel),
    reader: createDemoReader(kernel.database, kernel.assetStore),
    imports: createStepImports(kernel),
    documents: createDemoDocuments(kernel),
    redactions: createRedactions({
      ...kernel,
      redactHtml: (html, selectors) => kernel.documents.run('redactSnapshot', [html, selectors], { field: 'selectors', what: 'The step’s snapshot' }),
    }),
    rewrites: createStepRewrites({ database: kernel.database, settingsFor: (workspaceId) => deps.ai.settingsFor(workspaceId) }),
    aiSettingsFor: (workspaceId) => deps.ai.settingsFor(workspaceId),
    pagePatches: createPagePatches({
      ...kernel,
      urls: demoUrlsOf(kernel.config),
      apply: (html, patches, imageUrls) =>
        kernel.documents.run('applyPagePatches', [html, patches, imageUrls], { field: 'patches', what: 'The step’s snapshot' }),
    }),
  }),
  routes(app, ctx) {
    demosRoutes(app, ctx);
    stepsRoutes(app, ctx);
    chaptersRoutes(app, ctx);
    demoVersionsRoutes(app, ctx);
    redactionsRoutes(app, ctx);
    rewriteStepRoutes(app, ctx);
    pagePatchesRoutes(app, ctx);
  },
  jobs: (ctx) => registerDemosJobs({ ...ctx, aiSettingsFor: ctx.services.aiSettingsFor }),
});
