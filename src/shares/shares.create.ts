// Creating a share link: the workspace's defaults, the rules, then the row, its event and its audit line.
import type { Actor } from '../audit/actor';
import { recordAudit } from '../audit/audit-recorder';
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { hashPassword, randomToken } from '../core/crypto';
import { notFound } from '../core/errors';
import { newId } from '../core/ids';
import { emitEvent } from '../events/outbox';
import * as repo from './shares.repo';
import { checkExpiry, checkLists, checkPreviewImage, requireDemo, unique } from './shares.rules';
import type { SharesDeps } from './shares.service';

export interface NewShare {
  name?: string;
  password?: string;
  expiresAt?: string | null;
  /** Left out: the workspace's default. */
  requireIdentification?: boolean;
  allowedEmails?: string[];
  allowedDomains?: string[];
  previewTitle?: string | null;
  previewDescription?: string | null;
  previewImageAssetId?: string | null;
  showTitleBeforeUnlock?: boolean;
  /** Personalisation values (validated names and lengths by the schema). */
  variables?: Record<string, string>;
}

/** A new link on a demo of the workspace; what the request leaves out comes from the workspace's defaults. */
export async function create(deps: SharesDeps, auth: AuthContext, demoId: string, input: NewShare, actor: Actor) {
  checkExpiry(deps.clock, input.expiresAt);
  const defaults = await deps.shareDefaults(auth.workspaceId);
  const expiresAt =
    input.expiresAt !== undefined
      ? input.expiresAt && new Date(input.expiresAt)
      : defaults.expiresInDays && new Date(deps.clock.now().getTime() + defaults.expiresInDays * 86_400_000);
  const lists = {
    requireIdentification: input.requireIdentification ?? defaults.requireIdentification,
    allowedEmails: unique(input.allowedEmails ?? []),
    allowedDomains: unique(input.allowedDomains ?? []),
  };
  checkLists(lists);
  await requireDemo(deps, auth, demoId);
  await checkPreviewImage(deps, demoId, input.previewImageAssetId);
  const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
  const now = deps.clock.now();
  const share = await deps.database.db.transaction(async (tx) => {
    // The demo may have been deleted since the check; the foreign key would refuse, the lock says 404.
    const demo = await deps.demos.lock(tx, auth.workspaceId, demoId);
    if (!demo) throw notFound('Demo');
    const created = await repo.insertShare(tx, {
      id: newId('share'),
      workspaceId: auth.workspaceId,
      demoId,
      token: randomToken(32),
      name: input.name ?? '',
      passwordHash,
      expiresAt: expiresAt || null,
      ...lists,
      previewTitle: input.previewTitle ?? null,
      previewDescription: input.previewDescription ?? null,
      previewImageAssetId: input.previewImageAssetId ?? null,
      showTitleBeforeUnlock: input.showTitleBeforeUnlock ?? false,
      variables: input.variables ?? {},
      createdById: auth.memberId,
      createdAt: now,
      updatedAt: now,
    });
    await emitEvent(tx, deps.clock, {
      workspaceId: auth.workspaceId,
      kind: 'share.created',
      data: {
        share_id: created.id,
        demo_id: demoId,
        name: created.name,
        has_password: passwordHash !== null,
        expires_at: created.expiresAt?.toISOString() ?? null,
        require_identification: created.requireIdentification,
      },
    });
    await recordAudit(tx, deps.clock, actor, {
      workspaceId: auth.workspaceId,
      action: 'share.created',
      target: { type: 'share', id: created.id, label: created.name || null },
      changes: {
        demo_id: demoId,
        has_password: passwordHash !== null,
        expires_at: created.expiresAt?.toISOString() ?? null,
        require_identification: created.requireIdentification,
        allowed_emails: created.allowedEmails.length,
        allowed_domains: created.allowedDomains,
        preview: { title: created.previewTitle !== null, image: created.previewImageAssetId !== null },
        show_title_before_unlock: created.showTitleBeforeUnlock,
        // Names only: the values are the account's own words, and the link shows them.
        variables: Object.keys(created.variables),
      },
    });
    return created;
  });
  // share_url of the demo may name the new link now.
  await deps.changes.announce(tags.demo(demoId));
  return share;
}
