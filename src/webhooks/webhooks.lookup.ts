// What every webhook verb starts from: the caller's own webhook, and the rule that a disabled one sends nothing.
import type { AuthContext } from '../auth/permissions';
import { conflict, notFound } from '../core/errors';
import type { Executor } from '../db/client';
import * as repo from './webhooks.repo';

/** The workspace's webhook `id`; 404 for an unknown one or another workspace's. */
export async function findOwnWebhook(db: Executor, auth: AuthContext, id: string): Promise<repo.WebhookRow> {
  const row = await repo.findWebhook(db, auth.workspaceId, id);
  if (!row) throw notFound('Webhook');
  return row;
}

/** 409 for a disabled webhook: a test or a redelivery would never be attempted. */
export function requireActive(hook: repo.WebhookRow): void {
  if (!hook.active) throw conflict('This webhook is disabled: re-enable it (PATCH active: true) first');
}
