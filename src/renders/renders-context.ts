// What the renders domain is given: the database, clock and queue, the tools it runs, and the ports it reads demos and workspaces through.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import type { DemoReader } from '../demos/demos.reader';
import type { PatchedSnapshots } from '../demos/page-patches';
import type { JobQueue } from '../jobs/queue';
import type { WorkspacesReader } from '../workspaces/workspaces.reader';
import type { FfmpegProbe } from './ffmpeg';
import type { RunningRenders } from './running-renders';

export interface RendersContext {
  db: Database['db'];
  clock: Clock;
  queue: Pick<JobQueue, 'send'>;
  log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** The published version, its assets (demos module's reader). */
  demos: Pick<DemoReader, 'find' | 'published' | 'asset'>;
  /** Snapshots with their page patches applied, parsed once (demos' `pagePatches.snapshots`, as the viewer uses). */
  snapshots: Pick<PatchedSnapshots, 'serve'>;
  /** The workspace, for the player's brand. */
  workspaces: Pick<WorkspacesReader, 'find'>;
  /** ffmpeg as found at start-up (probed once). */
  ffmpeg: () => Promise<FfmpegProbe>;
  chromiumPath: string | null;
  /** How long one render may run (RENDER_TIMEOUT). */
  timeoutMs: number;
  /** The renders this process is making, so that a cancel kills them at once. */
  running: RunningRenders;
}
