// The share-links port demos reads share_url through (DemoLinks), as the query it is (or the subquery the demos list folds in): shares owns the links' table, and demos never names it.
import { and, asc, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client';
import type { DemoLinks } from '../demos/demo-reads.service';
import { shares } from './shares.tables';

/**
 * Per demo, its oldest link that is neither revoked nor expired (the demo's share_url), with its expiry.
 * Expiry is judged by the database clock, as the viewer gates' answers are recorded against it.
 */
export async function firstActiveLinks(db: Executor, demoIds: readonly string[]) {
  return db
    .selectDistinctOn([shares.demoId], { demoId: shares.demoId, token: shares.token, expiresAt: shares.expiresAt })
    .from(shares)
    .where(
      and(
        inArray(shares.demoId, [...demoIds]),
        isNull(shares.revokedAt),
        // A hub entry's link carries the hub's gates and belongs to it: never the demo's share_url.
        isNull(shares.hubId),
        or(isNull(shares.expiresAt), gt(shares.expiresAt, sql`now()`)),
      ),
    )
    .orderBy(shares.demoId, asc(shares.createdAt), asc(shares.id));
}

/**
 * The token of the demo's share_url link as a correlated subquery on `demoId` (a column of the caller's
 * statement): the demos list folds it into its page query, one statement for the page. The same link as
 * firstActiveLinks (never a hub entry's), by the index shares_demo_idx (demo_id, created_at).
 */
export function firstActiveTokenOf(demoId: SQL): SQL<string | null> {
  return sql<string | null>`(select s."token" from ${shares} s where s."demo_id" = ${demoId} and s."revoked_at" is null and s."hub_id" is null and (s."expires_at" is null or s."expires_at" > now()) order by s."created_at", s."id" limit 1)`;
}

/**
 * The demos' share_url, answered from the links' table for the demos domain (which never reads it).
 *
 * @example
 * const links = createShareLinks(kernel.database);
 * const first = (await links.firstActive([demoId])).get(demoId); // { token, expiresAt } or undefined
 */
export function createShareLinks(database: Pick<Database, 'db'>): DemoLinks {
  return {
    async firstActive(demoIds) {
      const rows = await firstActiveLinks(database.db, demoIds);
      return new Map(rows.map((r) => [r.demoId, { token: r.token, expiresAt: r.expiresAt }]));
    },
    firstActiveToken: firstActiveTokenOf,
  };
}
