// The monthly partitions of views and view_steps (docs/partitioning.md): their names and bounds, in UTC.
// Pure: the viewing domain's job makes them (view-partitions.repo.ts), the retention drops them.

/** The partitioned tables, parent first: a view's step rows reference it, so steps go before views. */
export const PARTITIONED_TABLES = ['views', 'view_steps'] as const;
export type PartitionedTable = (typeof PARTITIONED_TABLES)[number];

/** Months made ahead of the current one, so the month after next already has its partitions. */
export const MONTHS_AHEAD = 2;

/** The first instant (UTC) of the month `offset` months after the one holding `at`. */
export function monthStart(at: Date, offset = 0): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 1));
}

/** `views_p202611`: the table's partition for the month starting at `month`. */
export function partitionName(table: PartitionedTable, month: Date): string {
  return `${table}_p${month.getUTCFullYear()}${String(month.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The month a partition's name stands for, or null for a name of another form (the DEFAULT partition). */
export function partitionMonth(table: PartitionedTable, name: string): Date | null {
  const match = new RegExp(`^${table}_p(\\d{4})(\\d{2})$`).exec(name);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, 1)) : null;
}

/**
 * The advisory lock of every change to the partitions (made by the job, dropped by the retention): one at a
 * time, so that two jobs never make one month twice, and neither gives way (db/give-way.ts) to the other.
 */
export const PARTITIONS_LOCK = 0x70617274;

/** The DEFAULT partition: rows of a month that has no partition of its own land here, so no insert fails. */
export const defaultPartition = (table: PartitionedTable) => `${table}_default`;
