// A workspace's custom domains: add one (and the records to create), verify it, re-check it, remove it.
import type { Actor } from '../audit/actor';
import { systemActor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { randomBase62 } from '../core/crypto';
import { AppError, conflict, notFound } from '../core/errors';
import type { LimitOffset } from '../core/pagination';
import type { PublicOrigins } from '../core/public-origins';
import type { Database, Executor } from '../db/client';
import type { DomainDns } from './domain-dns';
import { normaliseDomain } from './domain-name';
import { choosePrimary, type DomainView, withPrimary } from './domain-primary';
import * as repo from './domains.repo';
import { newId } from '../core/ids';
import type { ReadRouting } from '../db/read-replica';

/** Enough for a brand and its regions; a bound, so one workspace cannot fill the table. */
export const DOMAINS_PER_WORKSPACE = 20;

export interface DomainsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  dns: DomainDns;
  /** APP_URL's and API_URL's host names: never a workspace's. */
  instanceHosts: readonly string[];
  /** What a CNAME must point at. */
  cnameTarget: string;
  /** List pages read here: the replica when it is fit (db/read-replica.ts), else the primary. */
  reads?: Pick<ReadRouting, 'reader'>;
  /** How long a verified domain may fail its re-checks before it stops being served. */
  recheckGraceMs: number;
  /** `http` on a development instance (an http: APP_URL), else `https`: the scheme of links on a custom domain. */
  scheme: 'http' | 'https';
  /** APP_URL: where links point when the workspace has no verified domain. */
  origins: Pick<PublicOrigins, 'appUrl'>;
}

/**
 * Custom domains. Verification is DNS: the TXT record `_demoshare.<domain>` holding this workspace's token
 * proves who controls the name; a CNAME to the instance proves only that the name leads here, so it
 * verifies a name no other workspace claims, and a TXT verification takes a name over from a workspace
 * that holds it by CNAME alone. At most one workspace holds a name verified.
 *
 * @example
 * const domains = createDomainsService({ ...kernel, dns, instanceHosts: ['app.demoshare.io'], cnameTarget: 'app.demoshare.io', recheckGraceMs: 259_200_000 });
 * const row = await domains.add(auth, 'demos.example.com', actor); // then show the records, then:
 * await domains.verify(auth, row.id, actor);
 */
export function createDomainsService(deps: DomainsDeps) {
  const { db } = deps.database;

  async function own(auth: AuthContext, id: string) {
    const row = await repo.findDomain(db, auth.workspaceId, id);
    if (!row) throw notFound('Domain');
    return row;
  }

  async function announce(...rows: { hostname: string; workspaceId: string }[]) {
    await deps.changes.announce(...rows.flatMap((r) => [tags.domain(r.hostname), tags.workspace(r.workspaceId)]));
  }

  const originOf = (hostname: string | undefined) => (hostname ? `${deps.scheme}://${hostname}` : deps.origins.appUrl);

  /**
   * Runs `change`, which takes `row` out of the links' reach (unverifies or deletes it), and says where the
   * workspace's links point afterwards if they used it: `{ links: { from, to } }`, the origins before and after
   * (the next verified domain, else APP_URL), to spread into the entry's `changes`, so whoever reads the log
   * knows the addresses handed out changed. Empty when links used another domain: nothing moved. The caller
   * holds the locks that keep another choice of the links' domain out from between the two reads.
   */
  async function movingLinks<T>(tx: Executor, row: repo.DomainRow, change: () => Promise<T>) {
    const before = await repo.primaryDomain(tx, row.workspaceId);
    const result = await change();
    if (before?.id !== row.id) return { result, moved: {} };
    const after = await repo.primaryDomain(tx, row.workspaceId);
    return { result, moved: { links: { from: originOf(row.hostname), to: originOf(after?.hostname) } } };
  }

  /** A verified domain stops being served (`patch` makes it so): written, with a `domain.unverified` entry saying why. */
  async function unverify(tx: Executor, row: repo.DomainRow, patch: Partial<repo.DomainRow>, reason: string) {
    const { result: updated, moved } = await movingLinks(tx, row, () => repo.updateDomain(tx, row.id, patch));
    await recordAudit(tx, deps.clock, systemActor(), {
      workspaceId: row.workspaceId,
      action: 'domain.unverified',
      target: { type: 'domain', id: row.id, label: row.hostname },
      changes: { reason, ...moved },
    });
    return updated;
  }

  /** A failed check of a domain: counted, and past the grace a verified domain stops being served. */
  async function recordFailure(tx: Executor, row: repo.DomainRow, error: string) {
    const now = deps.clock.now();
    const failingSince = row.status === 'verified' ? (row.failingSince ?? now) : null;
    const lost = row.status === 'verified' && now.getTime() - (failingSince as Date).getTime() >= deps.recheckGraceMs;
    const patch = {
      lastCheckedAt: now,
      lastError: error,
      failingSince,
      consecutiveFailures: row.consecutiveFailures + 1,
      updatedAt: now,
    };
    // No longer served, so no longer what links use: the choice is given up (the check constraint insists), and
    // links fall back to the oldest verified domain left. Verified again, it waits to be chosen again rather
    // than moving every link back by itself.
    const updated = lost
      ? await unverify(tx, row, { ...patch, status: 'failed', isPrimary: false }, error.slice(0, 300))
      : await repo.updateDomain(tx, row.id, patch);
    return { row: updated as repo.DomainRow, lost };
  }

  /** Checks the DNS of one of the workspace's domains and records the outcome; see the service's rules. */
  async function verify(auth: AuthContext, id: string, actor: Actor) {
    const row = await own(auth, id);
    const verdict = await deps.dns.check(row.hostname, row.verificationToken, deps.cnameTarget);
    const now = deps.clock.now();
    const demoted: repo.DomainRow[] = [];
    const outcome = await db.transaction(async (tx) => {
      const claims = await repo.lockClaims(tx, row.hostname);
      const current = claims.find((c) => c.id === row.id);
      if (!current) throw notFound('Domain');
      if (!verdict.method) return recordFailure(tx, current, verdict.error ?? 'not verified');
      const others = claims.filter((c) => c.workspaceId !== current.workspaceId);
      const holder = others.find((c) => c.status === 'verified');
      if (holder && !(verdict.method === 'txt' && holder.verifiedBy === 'cname')) {
        throw conflict(`${row.hostname} is verified by another workspace: it must remove it first`);
      }
      if (verdict.method === 'cname' && others.length > 0) {
        return recordFailure(
          tx,
          current,
          'another workspace also claims this domain: a CNAME cannot tell which one owns it, create the TXT record',
        );
      }
      if (holder) {
        demoted.push(holder);
        await unverify(
          tx,
          holder,
          {
            status: 'pending',
            verifiedBy: null,
            verifiedAt: null,
            isPrimary: false,
            lastError: 'another workspace proved ownership with the TXT record',
            updatedAt: now,
          },
          'taken over by a TXT verification',
        );
      }
      const wasVerified = current.status === 'verified';
      const updated = await repo.updateDomain(tx, current.id, {
        status: 'verified',
        verifiedBy: verdict.method,
        verifiedAt: wasVerified ? current.verifiedAt : now,
        lastCheckedAt: now,
        lastError: null,
        failingSince: null,
        consecutiveFailures: 0,
        updatedAt: now,
      });
      if (!wasVerified) {
        await recordAudit(tx, deps.clock, actor, {
          workspaceId: current.workspaceId,
          action: 'domain.verified',
          target: { type: 'domain', id: current.id, label: current.hostname },
          changes: { method: verdict.method },
        });
      }
      return { row: updated as repo.DomainRow, lost: false };
    });
    await announce(outcome.row, ...demoted);
    return view(outcome.row);
  }

  const view = async (row: repo.DomainRow) => (await withPrimary(db, row.workspaceId, [row]))[0] as DomainView;

  return {
    async list(auth: AuthContext, page: LimitOffset) {
      const reader = deps.reads?.reader(auth.workspaceId) ?? db;
      const { rows, total } = await repo.listDomains(reader, auth.workspaceId, page);
      return { rows: await withPrimary(reader, auth.workspaceId, rows), total };
    },
    get: async (auth: AuthContext, id: string) => view(await own(auth, id)),
    verify,

    /** Adds a pending domain with a fresh token: 400 for a name that cannot be one, 409 when already added. */
    async add(auth: AuthContext, hostname: string, actor: Actor) {
      const name = normaliseDomain(hostname, deps.instanceHosts);
      const now = deps.clock.now();
      return db.transaction(async (tx) => {
        const { total } = await repo.listDomains(tx, auth.workspaceId, { limit: 0, offset: 0 });
        if (total >= DOMAINS_PER_WORKSPACE) {
          throw new AppError('invalid_request', `A workspace has at most ${DOMAINS_PER_WORKSPACE} custom domains: remove one first`);
        }
        const created = await repo.insertDomain(tx, {
          id: newId('domain'),
          workspaceId: auth.workspaceId,
          hostname: name,
          verificationToken: randomBase62(32),
          createdAt: now,
          updatedAt: now,
        });
        if (!created) throw conflict(`${name} is already one of this workspace's domains`);
        await recordAudit(tx, deps.clock, actor, {
          workspaceId: auth.workspaceId,
          action: 'domain.added',
          target: { type: 'domain', id: created.id, label: name },
          changes: { hostname: name },
        });
        // Pending: links cannot use it yet.
        return { ...created, primary: false } satisfies DomainView;
      });
    },

    /**
     * Sets where the domain's root leads (`rootUrl`, null: nowhere) and/or makes it the domain links use
     * (`primary`, see choosePrimary), in one transaction: a refused part changes nothing. The Host routing and
     * the links see it from the next request on, in every process.
     */
    async update(auth: AuthContext, id: string, patch: { rootUrl?: string | null; primary?: true }, actor: Actor) {
      const changed: repo.DomainRow[] = [];
      const row = await db.transaction(async (tx) => {
        let current: repo.DomainRow | undefined;
        // The choice first: it locks every domain of the workspace, in one order, before anything else is written.
        if (patch.primary) {
          const chosen = await choosePrimary(tx, deps.clock, auth.workspaceId, id, actor);
          if (chosen.previous) changed.push(chosen.row, chosen.previous);
          current = chosen.row;
        } else {
          current = await repo.findDomain(tx, auth.workspaceId, id);
          if (!current) throw notFound('Domain');
        }
        if (patch.rootUrl !== undefined && current.rootUrl !== patch.rootUrl) {
          await recordAudit(tx, deps.clock, actor, {
            workspaceId: auth.workspaceId,
            action: 'domain.changed',
            target: { type: 'domain', id, label: current.hostname },
            changes: { root_url: { from: current.rootUrl, to: patch.rootUrl } },
          });
          current = (await repo.updateDomain(tx, id, { rootUrl: patch.rootUrl, updatedAt: deps.clock.now() })) as repo.DomainRow;
          changed.push(current);
        }
        return current;
      });
      if (changed.length > 0) await announce(...changed);
      return view(row);
    },

    /**
     * Removes a domain: from the next request on, its Host gets the unknown-domain 404. If links used it, they
     * move to the workspace's next verified domain, else APP_URL, and the `domain.removed` entry says where.
     */
    async remove(auth: AuthContext, id: string, actor: Actor) {
      const row = await db.transaction(async (tx) => {
        // Locked as a choice of the links' domain locks them, so that none lands between the reads of which
        // domain links use before and after the removal (it would be reported as the removal's move).
        const domain = (await repo.lockWorkspaceDomains(tx, auth.workspaceId)).find((r) => r.id === id);
        if (!domain) throw notFound('Domain');
        const { moved } = await movingLinks(tx, domain, () => repo.deleteDomain(tx, auth.workspaceId, id));
        await recordAudit(tx, deps.clock, actor, {
          workspaceId: auth.workspaceId,
          action: 'domain.removed',
          target: { type: 'domain', id, label: domain.hostname },
          changes: { hostname: domain.hostname, status: domain.status, ...moved },
        });
        return domain;
      });
      await announce(row);
    },

    /**
     * The scheduled re-check: verified domains not checked for `everyMs`, a batch at a time. A passing check
     * clears the failure count; failing ones are counted, and a domain failing for longer than the grace
     * stops being served (status `failed`) until an admin verifies it again.
     */
    async recheckDue(everyMs: number, batch = 50): Promise<{ checked: number; lost: number }> {
      const due = await repo.dueForRecheck(db, new Date(deps.clock.now().getTime() - everyMs), batch);
      let lost = 0;
      for (const row of due) {
        const verdict = await deps.dns.check(row.hostname, row.verificationToken, deps.cnameTarget);
        const now = deps.clock.now();
        const result = await db.transaction(async (tx) => {
          const [current] = (await repo.lockClaims(tx, row.hostname)).filter((c) => c.id === row.id);
          if (current?.status !== 'verified') return { lost: false };
          if (verdict.method) {
            await repo.updateDomain(tx, row.id, { lastCheckedAt: now, lastError: null, failingSince: null, consecutiveFailures: 0, updatedAt: now });
            return { lost: false };
          }
          return recordFailure(tx, current, verdict.error ?? 'not verified');
        });
        if (result.lost) {
          lost++;
          await announce(row);
        }
      }
      return { checked: due.length, lost };
    },
  };
}

export type DomainsService = ReturnType<typeof createDomainsService>;
