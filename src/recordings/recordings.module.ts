import { defineModule } from '../module';
import { registerRecordingsJobs } from './recordings.jobs';
import { recordingsRoutes } from './recordings.routes';
import { createRecordingsService, type RecordingsService } from './recordings.service';

declare module '../module' {
  interface Services {
    recordings: { recordings: RecordingsService };
  }
}

/**
 * Recordings: resumable step-by-step uploads (the browser recorder's) that become a demo on completion,
 * through demos' `imports`. Routes under /v1/recordings; the expiry sweep as its job.
 *
 * @example
 * ```ts
 * // In app.ts's one list, after demos (whose `imports` it reads when a recording completes):
 * const modules = [accountsModule, demosModule, sharesModule, recordingsModule];
 * ```
 */
export const recordingsModule = defineModule({
  name: 'recordings',
  owns: { tables: 'recordings.tables.ts', ids: ['recording'] },
  needs: ['demos'],
  create: (kernel, deps) => ({
    recordings: createRecordingsService({
      database: kernel.database,
      clock: kernel.clock,
      cleanSnapshot: (html, pageUrl) => kernel.documents.run('cleanSnapshot', [html, pageUrl], { field: 'snapshot', what: 'The snapshot' }),
      limits: {
        screenshotBytes: kernel.config.STEP_IMAGE_MAX_BYTES,
        snapshotBytes: kernel.config.RECORDING_SNAPSHOT_MAX_BYTES,
      },
      imports: () => deps.demos.imports,
    }),
  }),
  routes: recordingsRoutes,
  jobs: registerRecordingsJobs,
});
