import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { notFound } from '../core/errors';
import type { Database } from '../db/client';
import * as repo from './workspaces.repo';
import { createWorkspaceLogo } from './workspace-logo';
import type { WorkspaceChange } from './workspaces.schemas';

/** What the workspaces service is built from: the kernel's database, clock and change feed. */
export interface WorkspacesDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
}

/** What a new share link gets where its request leaves an option out. */
export interface ShareDefaults {
  requireIdentification: boolean;
  expiresInDays: number | null;
}

/**
 * A workspace's own settings: its name, its brand (logo, colour, font) and its share-link defaults. The
 * logo's verbs are in workspace-logo.ts.
 *
 * @example
 * const workspaces = createWorkspacesService(kernel);
 * await workspaces.update(auth, { branding: { brand_color: '#1a73e8' } }, actor); // announces tags.workspace
 * const { requireIdentification } = await workspaces.shareDefaults(workspaceId);
 */
export function createWorkspacesService(deps: WorkspacesDeps) {
  const { db } = deps.database;
  const { clock } = deps;

  async function settings(workspaceId: string) {
    const row = await repo.findWorkspace(db, workspaceId);
    if (!row) throw notFound('Workspace');
    const logo = row.logoSha256 ? await repo.findLogo(db, workspaceId) : undefined;
    return { row, logo };
  }

  async function update(auth: AuthContext, change: WorkspaceChange, actor: Actor) {
    const changed = await db.transaction(async (tx) => {
      const row = await repo.lockWorkspace(tx, auth.workspaceId);
      if (!row) throw notFound('Workspace');
      const next = {
        name: change.name ?? row.name,
        brandColor: change.branding?.brand_color === undefined ? row.brandColor : change.branding.brand_color,
        font: change.branding?.font ?? row.font,
        shareRequireIdentification: change.share_defaults?.require_identification ?? row.shareRequireIdentification,
        shareExpiresInDays:
          change.share_defaults?.expires_in_days === undefined ? row.shareExpiresInDays : change.share_defaults.expires_in_days,
      };
      const fields = (Object.keys(next) as (keyof typeof next)[]).filter((k) => next[k] !== row[k]);
      if (fields.length === 0) return false;
      await repo.updateWorkspace(tx, row.id, { ...next, updatedAt: clock.now() });
      const names: Record<keyof typeof next, string> = {
        name: 'name',
        brandColor: 'brand_color',
        font: 'font',
        shareRequireIdentification: 'share_defaults.require_identification',
        shareExpiresInDays: 'share_defaults.expires_in_days',
      };
      await recordAudit(tx, clock, actor, {
        workspaceId: row.id,
        action: 'workspace.changed',
        target: { type: 'workspace', id: row.id, label: next.name },
        changes: Object.fromEntries(fields.map((f) => [names[f], { from: row[f], to: next[f] }])),
      });
      return true;
    });
    if (changed) await deps.changes.announce(tags.workspace(auth.workspaceId));
    return settings(auth.workspaceId);
  }

  async function shareDefaults(workspaceId: string): Promise<ShareDefaults> {
    const row = await repo.findWorkspace(db, workspaceId);
    return {
      requireIdentification: row?.shareRequireIdentification ?? false,
      expiresInDays: row?.shareExpiresInDays ?? null,
    };
  }

  const logos = createWorkspaceLogo(deps, settings);
  return { settings, update, setLogo: logos.setLogo, removeLogo: logos.removeLogo, logo: logos.logo, shareDefaults };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
