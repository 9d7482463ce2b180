// Port: the links a demo hub makes for its entries. Shares owns the table; hubs asks through this.
import { randomToken } from '../core/crypto';
import { newId } from '../core/ids';
import type { Executor } from '../db/client';
import * as repo from './hub-links.repo';
import type { ShareRow } from './shares.schemas';

/** The gates a hub gives each of its entries' links: the hub's own, so a link alone is no way round them. */
export interface HubLinkGates {
  passwordHash: string | null;
  expiresAt: Date | null;
  requireIdentification: boolean;
  allowedEmails: string[];
  allowedDomains: string[];
}

/**
 * What the hubs domain may do with links, in its own transactions. The caller announces `tags.share(id)`
 * for what changed after its commit.
 *
 * @example
 * const link = await deps.shares.hubLinks.create(tx, { workspaceId, demoId, hubId, name: 'Hub: Product tours', gates, createdById, now });
 * await deps.shares.hubLinks.sync(tx, hubId, gates, passwordChanged, now);
 */
export interface HubLinks {
  create(
    tx: Executor,
    input: { workspaceId: string; demoId: string; hubId: string; name: string; gates: HubLinkGates; createdById: string | null; now: Date },
  ): Promise<ShareRow>;
  sync(tx: Executor, hubId: string, gates: HubLinkGates, passwordChanged: boolean, now: Date): Promise<string[]>;
  revoke(tx: Executor, hubId: string, now: Date, ids?: readonly string[]): Promise<string[]>;
  find(tx: Executor, hubId: string, ids: readonly string[]): Promise<ShareRow[]>;
}

export const hubLinks: HubLinks = {
  create: (tx, input) =>
    repo.insertHubLink(tx, {
      id: newId('share'),
      workspaceId: input.workspaceId,
      demoId: input.demoId,
      token: randomToken(32),
      name: input.name.slice(0, 200),
      ...input.gates,
      hubId: input.hubId,
      createdById: input.createdById,
      createdAt: input.now,
      updatedAt: input.now,
    }),
  sync: (tx, hubId, gates, passwordChanged, now) => repo.setHubLinkGates(tx, hubId, gates, passwordChanged, now),
  revoke: (tx, hubId, now, ids) => repo.revokeHubLinks(tx, hubId, now, ids),
  find: (tx, hubId, ids) => repo.findHubLinks(tx, hubId, ids),
};
