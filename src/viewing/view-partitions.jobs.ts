// Views and their step rows are partitioned by month (docs/partitioning.md): this job makes the partitions of this month and the next MONTHS_AHEAD, daily and at start-up, and analyzes the partitioned parents whose statistics drifted. Rows never wait for it: a month without a partition fills the DEFAULT one, which the next run empties into the new partition.
import type { Kernel } from '../context';
import { analyzePartitionedParents } from '../db/partitioned-statistics';
import { MONTHS_AHEAD, monthStart, partitionName } from './view-partitions';
import * as repo from './view-partitions.repo';

export const VIEW_PARTITIONS_JOB = 'maintenance.view-partitions';

/** Makes the missing partitions from this month to MONTHS_AHEAD ahead; answers the names of those it made. */
export async function ensureViewPartitions(ctx: Pick<Kernel, 'database' | 'clock'>): Promise<string[]> {
  const now = ctx.clock.now();
  const made: string[] = [];
  for (let offset = 0; offset <= MONTHS_AHEAD; offset++) {
    const month = monthStart(now, offset);
    if (await repo.createMonthPartitions(ctx.database, month, monthStart(now, offset + 1))) made.push(partitionName('views', month));
  }
  return made;
}

/**
 * One run of the job: the partitions ahead, then the statistics of the partitioned parents, which nothing
 * else keeps on PostgreSQL (autovacuum skips them; src/db/partitioned-statistics.ts).
 */
export async function viewPartitionsPass(ctx: Pick<Kernel, 'database' | 'clock'>) {
  const made = await ensureViewPartitions(ctx);
  const analyzed = (await analyzePartitionedParents(ctx.database)).map((p) => p.table);
  return { made, analyzed };
}

/** Daily at 2:11, and once at start-up, so that an instance that was stopped for months catches up at once. */
export async function registerViewPartitionsJob(ctx: Kernel) {
  // A run that gave way to readers' locks (view-partitions.repo.ts) tries again a minute later, then two.
  await ctx.queue.define({ name: VIEW_PARTITIONS_JOB, retryLimit: 2, retryDelay: 60, retryBackoff: true });
  await ctx.queue.work(VIEW_PARTITIONS_JOB, {}, async () => {
    const { made, analyzed } = await viewPartitionsPass(ctx);
    if (made.length > 0) ctx.log.info({ partitions: made }, 'view partitions made');
    if (analyzed.length > 0) ctx.log.info({ analyzed }, 'partitioned tables analyzed');
  });
  await ctx.queue.schedule(VIEW_PARTITIONS_JOB, '11 2 * * *');
  await ctx.queue.send(VIEW_PARTITIONS_JOB, {});
}
