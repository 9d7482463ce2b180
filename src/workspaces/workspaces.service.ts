import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { type Changes, tags } from '../core/changes';
import type { Clock } from '../core/clock';
import { sha256Hex } from '../core/crypto';
import { AppError, invalid, notFound } from '../core/errors';
import type { Database } from '../db/client';
import { sniffImage } from '../core/image-sniff';
import * as repo from './workspaces.repo';
import { LOGO_MAX_BYTES, LOGO_MAX_SIDE, type WorkspaceChange } from './workspaces.schemas';

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

/** A workspace's own settings: its name, its brand (logo, colour, font) and its share-link defaults. */
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

  async function setLogo(auth: AuthContext, bytes: Buffer, actor: Actor) {
    if (bytes.length > LOGO_MAX_BYTES) {
      throw new AppError('payload_too_large', `A logo can be up to ${LOGO_MAX_BYTES / 1024} KB`);
    }
    const info = sniffImage(bytes);
    if (!info) {
      throw new AppError('unsupported_media_type', 'The logo is not a PNG, JPEG or WebP image (checked from its bytes)');
    }
    if (info.width > LOGO_MAX_SIDE || info.height > LOGO_MAX_SIDE) {
      throw invalid(`A logo can be up to ${LOGO_MAX_SIDE} × ${LOGO_MAX_SIDE} pixels; this one is ${info.width} × ${info.height}`, [
        { field: 'body', message: `must be at most ${LOGO_MAX_SIDE} pixels on each side` },
      ]);
    }
    const sha256 = sha256Hex(bytes);
    await db.transaction(async (tx) => {
      const row = await repo.lockWorkspace(tx, auth.workspaceId);
      if (!row) throw notFound('Workspace');
      const now = clock.now();
      await repo.upsertLogo(tx, { workspaceId: row.id, bytes, ...info, sha256, updatedAt: now });
      await repo.updateWorkspace(tx, row.id, { logoSha256: sha256, updatedAt: now });
      await recordAudit(tx, clock, actor, {
        workspaceId: row.id,
        action: 'workspace.changed',
        target: { type: 'workspace', id: row.id, label: row.name },
        changes: { logo: { from: row.logoSha256 ? 'set' : null, to: `${info.contentType} ${info.width}×${info.height}` } },
      });
    });
    await deps.changes.announce(tags.workspace(auth.workspaceId));
    return settings(auth.workspaceId);
  }

  async function removeLogo(auth: AuthContext, actor: Actor) {
    const removed = await db.transaction(async (tx) => {
      const row = await repo.lockWorkspace(tx, auth.workspaceId);
      if (!row) throw notFound('Workspace');
      if (!row.logoSha256) return false;
      await repo.deleteLogo(tx, row.id);
      await repo.updateWorkspace(tx, row.id, { logoSha256: null, updatedAt: clock.now() });
      await recordAudit(tx, clock, actor, {
        workspaceId: row.id,
        action: 'workspace.changed',
        target: { type: 'workspace', id: row.id, label: row.name },
        changes: { logo: { from: 'set', to: null } },
      });
      return true;
    });
    if (removed) await deps.changes.announce(tags.workspace(auth.workspaceId));
  }

  /** The public logo: only the current one (`version` is a prefix of its SHA-256). */
  async function logo(workspaceId: string, version: string) {
    const row = await repo.findLogo(db, workspaceId);
    if (!row?.sha256.startsWith(version)) throw notFound('Logo');
    return row;
  }

  async function shareDefaults(workspaceId: string): Promise<ShareDefaults> {
    const row = await repo.findWorkspace(db, workspaceId);
    return {
      requireIdentification: row?.shareRequireIdentification ?? false,
      expiresInDays: row?.shareExpiresInDays ?? null,
    };
  }

  return { settings, update, setLogo, removeLogo, logo, shareDefaults };
}

export type WorkspacesService = ReturnType<typeof createWorkspacesService>;
