// A workspace's hubs: create, list, read, change (gates kept in step on every entry link), delete.
import { snakeCase } from '../core/snake-case';
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { hashPassword, randomToken } from '../core/crypto';
import { invalid, notFound } from '../core/errors';
import { newId } from '../core/ids';
import type { Database } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import type { DemoReader } from '../demos/demos.reader';
import type { HubLinkGates, HubLinks } from '../shares/hub-links';
import * as repo from './hubs.repo';
import type { HubRow } from './hubs.repo';
import type { HubInput } from './hubs.schemas';

export interface HubsDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  demos: Pick<DemoReader, 'find' | 'versionSnapshot' | 'asset'>;
  hubLinks: HubLinks;
  /** Where the list is read (the replica when fit, db/read-replica.ts); absent: `database`. */
  reads?: Pick<ReadRouting, 'reader'>;
}

/** What an audit entry says of a hub's gates: whether each is on, never the password or the addresses. */
function gateSummary(hub: HubRow) {
  return {
    has_password: hub.passwordHash !== null,
    require_identification: hub.requireIdentification,
    lead_fields: hub.leadFields.length,
    allow_list: hub.allowedEmails.length + hub.allowedDomains.length,
    expires_at: hub.expiresAt?.toISOString() ?? null,
  };
}

/** The request's fields that were given, as the API names them. */
function changedFields(input: HubInput) {
  return Object.keys(input)
    .filter((k) => input[k as keyof HubInput] !== undefined)
    .map(snakeCase);
}

/** The gates every entry link of the hub carries: the hub's own (a lead form identifies too). */
export function gatesOf(hub: HubRow): HubLinkGates {
  return {
    passwordHash: hub.passwordHash,
    expiresAt: hub.expiresAt,
    requireIdentification: hub.requireIdentification || hub.leadFields.length > 0,
    allowedEmails: hub.allowedEmails,
    allowedDomains: hub.allowedDomains,
  };
}

const unique = (values: string[]) => [...new Set(values)];

function checkInput(deps: Pick<HubsDeps, 'clock'>, input: HubInput, merged: Pick<HubRow, 'ctaLabel' | 'ctaUrl'> & { identifies: boolean; lists: number }) {
  if (input.expiresAt && new Date(input.expiresAt) <= deps.clock.now()) {
    throw invalid('expires_at must be in the future', [{ field: 'expires_at', message: 'must be in the future' }]);
  }
  if ((merged.ctaLabel === null) !== (merged.ctaUrl === null)) {
    throw invalid('cta_label and cta_url go together', [{ field: merged.ctaLabel === null ? 'cta_label' : 'cta_url', message: 'is needed with the other' }]);
  }
  if (!merged.identifies && merged.lists > 0) {
    throw invalid('allowed_emails and allowed_domains need require_identification: true or lead_fields', [
      { field: 'require_identification', message: 'must be true (or lead_fields set) when an allow-list is set' },
    ]);
  }
}

/**
 * Hubs of a workspace. Every change of a hub's gates is written to its entry links in the same
 * transaction (a link alone is never a way round the hub's password or allow-lists).
 *
 * @example
 * const hubs = createHubsService({ ...kernel, demos: deps.demos.reader, hubLinks: deps.shares.hubLinks });
 * const hub = await hubs.create(auth, { name: 'Product tours' });
 */
export function createHubsService(deps: HubsDeps) {
  const { db } = deps.database;

  async function get(auth: AuthContext, id: string) {
    const hub = await repo.findHub(db, auth.workspaceId, id);
    if (!hub) throw notFound('Hub');
    return hub;
  }

  async function detail(auth: AuthContext, id: string) {
    const hub = await get(auth, id);
    const [collections, entries] = await Promise.all([repo.listCollections(db, hub.id), repo.listEntries(db, hub.id)]);
    return { hub, collections, entries };
  }

  async function create(auth: AuthContext, input: HubInput & { name: string }, actor: Actor) {
    const lists = { allowedEmails: unique(input.allowedEmails ?? []), allowedDomains: unique(input.allowedDomains ?? []) };
    const leadFields = unique(input.leadFields ?? []);
    const requireIdentification = input.requireIdentification ?? false;
    checkInput(deps, input, {
      ctaLabel: input.ctaLabel ?? null,
      ctaUrl: input.ctaUrl ?? null,
      identifies: requireIdentification || leadFields.length > 0,
      lists: lists.allowedEmails.length + lists.allowedDomains.length,
    });
    const now = deps.clock.now();
    const passwordHash = input.password ? await hashPassword(input.password) : null;
    return db.transaction(async (tx) => {
      const hub = await repo.insertHub(tx, {
      id: newId('hub'),
      workspaceId: auth.workspaceId,
      token: randomToken(32),
      name: input.name,
      title: input.title ?? input.name,
      intro: input.intro ?? '',
      ctaLabel: input.ctaLabel ?? null,
      ctaUrl: input.ctaUrl ?? null,
      passwordHash,
      expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
      requireIdentification,
      leadFields,
      ...lists,
      createdById: auth.memberId,
      createdAt: now,
      updatedAt: now,
      });
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'hub.created',
        target: { type: 'hub', id: hub.id, label: hub.name },
        changes: gateSummary(hub),
      });
      return hub;
    });
  }

  async function update(auth: AuthContext, id: string, input: HubInput, actor: Actor) {
    const passwordHash = input.password ? await hashPassword(input.password) : input.password;
    const { hub, changed } = await db.transaction(async (tx) => {
      const current = await repo.lockHub(tx, auth.workspaceId, id);
      if (!current) throw notFound('Hub');
      const patch: Partial<HubRow> = {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.intro !== undefined ? { intro: input.intro } : {}),
        ...(input.ctaLabel !== undefined ? { ctaLabel: input.ctaLabel } : {}),
        ...(input.ctaUrl !== undefined ? { ctaUrl: input.ctaUrl } : {}),
        ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt ? new Date(input.expiresAt) : null } : {}),
        ...(input.requireIdentification !== undefined ? { requireIdentification: input.requireIdentification } : {}),
        ...(input.leadFields !== undefined ? { leadFields: unique(input.leadFields) } : {}),
        ...(input.allowedEmails !== undefined ? { allowedEmails: unique(input.allowedEmails) } : {}),
        ...(input.allowedDomains !== undefined ? { allowedDomains: unique(input.allowedDomains) } : {}),
      };
      const passwordChanged = passwordHash !== undefined;
      if (passwordChanged) Object.assign(patch, { passwordHash, passwordVersion: current.passwordVersion + 1 });
      const merged = { ...current, ...patch };
      checkInput(deps, input, {
        ctaLabel: merged.ctaLabel,
        ctaUrl: merged.ctaUrl,
        identifies: merged.requireIdentification || merged.leadFields.length > 0,
        lists: merged.allowedEmails.length + merged.allowedDomains.length,
      });
      const now = deps.clock.now();
      const updated = await repo.updateHub(tx, current.id, { ...patch, updatedAt: now });
      const links = await deps.hubLinks.sync(tx, updated.id, gatesOf(updated), passwordChanged, now);
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'hub.changed',
        target: { type: 'hub', id: updated.id, label: updated.name },
        // Field names only: never the password or its hash.
        changes: { fields: changedFields(input), ...gateSummary(updated), links_updated: links.length },
      });
      return { hub: updated, changed: links };
    });
    // The viewer caches hold the links' gates.
    if (changed.length > 0) await deps.changes.announce(...changed.map((s) => tags.share(s)));
    return hub;
  }

  async function remove(auth: AuthContext, id: string, actor: Actor) {
    const revoked = await db.transaction(async (tx) => {
      const hub = await repo.lockHub(tx, auth.workspaceId, id);
      if (!hub) throw notFound('Hub');
      // Its links go with it: revoked (views keep their link), never left open without the hub's page.
      const links = await deps.hubLinks.revoke(tx, hub.id, deps.clock.now());
      await repo.deleteHub(tx, hub.id);
      await recordAudit(tx, deps.clock, actor, {
        workspaceId: auth.workspaceId,
        action: 'hub.deleted',
        target: { type: 'hub', id: hub.id, label: hub.name },
        changes: { links_revoked: links.length },
      });
      return links;
    });
    if (revoked.length > 0) await deps.changes.announce(...revoked.map((s) => tags.share(s)));
  }

  return {
    list: (auth: AuthContext, range: { limit: number; offset: number }) =>
      repo.listHubs(deps.reads?.reader(auth.workspaceId) ?? db, auth.workspaceId, range),
    get,
    detail,
    create,
    update,
    remove,
  };
}

export type HubsService = ReturnType<typeof createHubsService>;
