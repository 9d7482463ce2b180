// PostgreSQL's autovacuum defaults, which the embedded upkeep and the partitioned parents' analyze both follow.

/** A table is due for VACUUM once more dead rows than this: 50 + 20 % of its size. */
export const vacuumThreshold = (size: number) => 50 + 0.2 * size;

/** Due for VACUUM by inserts alone (autovacuum_vacuum_insert_*): 1,000 + 20 % of its size. */
export const insertVacuumThreshold = (size: number) => 1_000 + 0.2 * size;

/** Due for ANALYZE once more rows than this changed since the last one: 50 + 10 % of its size. */
export const analyzeThreshold = (size: number) => 50 + 0.1 * size;
