// A workspace's logo: set from an uploaded image (checked from its bytes), removed, served by its hash.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { sha256Hex } from '../core/crypto';
import { AppError, invalid, notFound } from '../core/errors';
import { sniffImage } from '../core/image-sniff';
import * as repo from './workspaces.repo';
import { LOGO_MAX_BYTES, LOGO_MAX_SIDE } from './workspaces.schemas';
import type { WorkspacesDeps } from './workspaces.service';

/**
 * The logo verbs. A change announces the workspace's tag after the commit: share pages and players
 * drop the brand they keep.
 *
 * @example
 * const logos = createWorkspaceLogo(deps, settings);
 * await logos.setLogo(auth, pngBytes, actor); // 413 past LOGO_MAX_BYTES, 415 unless PNG, JPEG or WebP
 */
export function createWorkspaceLogo<S>(deps: WorkspacesDeps, settings: (workspaceId: string) => Promise<S>) {
  const { db } = deps.database;
  const { clock } = deps;

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

  return { setLogo, removeLogo, logo };
}
