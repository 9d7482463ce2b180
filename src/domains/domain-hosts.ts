// The Host routing's look-ups, cached: which workspace a host name serves, and which host a workspace's links use.
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { GuardedCache } from '../core/guarded-cache';
import type { Database } from '../db/client';
import * as repo from './domains.repo';

export interface DomainHosts {
  /** The workspace holding `hostname` (normalised) verified; undefined for any other name. */
  ownerOf(hostname: string): Promise<string | undefined>;
  /** Where a verified domain's root (`/`) sends visitors; undefined when nowhere (or not a verified domain). */
  rootOf(hostname: string): Promise<string | undefined>;
  /** The origin of a workspace's links (`https://<its primary domain>`: the chosen one, else the oldest verified); undefined without one. */
  originOf(workspaceId: string): Promise<string | undefined>;
  close(): void;
}

/**
 * Both look-ups behind GuardedCaches on the `changes` feed: every request on a custom domain asks the first,
 * every link answered the second, so neither may cost a query each time. Unknown names are cached too (as
 * null), so a flood of made-up Host headers costs one query per name, not per request. Entries carry
 * `domain:<hostname>` and `workspace:<id>`, which the domains service announces on every change of status, root or primary.
 *
 * @example
 * const hosts = createDomainHosts({ ...kernel, scheme: 'https' });
 * await hosts.ownerOf('demos.example.com'); // 'ws_…' once verified
 */
export function createDomainHosts(deps: { database: Pick<Database, 'db'>; changes: Changes; clock: Clock; scheme: 'http' | 'https' }): DomainHosts {
  const owners = new GuardedCache<{ workspaceId: string | null; rootUrl: string | null }>(deps.changes, 5 * 60_000, 10_000, deps.clock);
  const primaries = new GuardedCache<{ hostname: string | null }>(deps.changes, 5 * 60_000, 10_000, deps.clock);
  const owner = (hostname: string) =>
    owners.load(
      hostname,
      (v) => [tags.domain(hostname), ...(v.workspaceId ? [tags.workspace(v.workspaceId)] : [])],
      async () => {
        const row = await repo.verifiedOwner(deps.database.db, hostname);
        return { workspaceId: row?.workspaceId ?? null, rootUrl: row?.rootUrl ?? null };
      },
    );
  return {
    async ownerOf(hostname) {
      return (await owner(hostname))?.workspaceId ?? undefined;
    },
    async rootOf(hostname) {
      return (await owner(hostname))?.rootUrl ?? undefined;
    },
    async originOf(workspaceId) {
      const entry = await primaries.load(
        workspaceId,
        () => [tags.workspace(workspaceId)],
        async () => ({ hostname: (await repo.primaryDomain(deps.database.db, workspaceId))?.hostname ?? null }),
      );
      return entry?.hostname ? `${deps.scheme}://${entry.hostname}` : undefined;
    },
    close() {
      owners.close();
      primaries.close();
    },
  };
}
