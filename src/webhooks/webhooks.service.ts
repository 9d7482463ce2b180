// A workspace's webhooks as the routes use them: one file per verb (webhooks.<verb>.ts), bound here to their deps.
import type { AuthContext } from '../auth/permissions';
import type { Clock } from '../core/clock';
import type { LimitOffset } from '../core/pagination';
import type { SafeFetch } from '../core/net/safe-fetch';
import type { Database } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import { createWebhook } from './webhooks.create';
import { deleteWebhook } from './webhooks.delete';
import { getDelivery, listDeliveries } from './webhooks.delivery-log';
import { findOwnWebhook } from './webhooks.lookup';
import { redeliver } from './webhooks.redeliver';
import * as repo from './webhooks.repo';
import { rotateWebhookSecret } from './webhooks.rotate-secret';
import { sendTestEvent } from './webhooks.send-test';
import { updateWebhook } from './webhooks.update';

/** What every webhook verb takes first. */
export interface WebhooksDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  /** The SSRF guard: a webhook's address is checked when it is set, and again at every delivery. */
  net: Pick<SafeFetch, 'check'>;
  /** Seals the signing secrets at rest. */
  sealingKey: Buffer;
  /** How long a rotated-out secret keeps signing beside the new one. */
  rotationGraceMs: number;
  /** The first attempt plus one per configured retry delay. */
  maxAttempts: number;
  /** Where the lists (webhooks, deliveries) are read (the replica when fit, db/read-replica.ts); absent: `database`. */
  reads?: Pick<ReadRouting, 'reader'>;
}

/**
 * Webhooks: subscribe, change, delete, rotate the secret, send a test, read the delivery log, redeliver.
 * Each verb lives in its own file and takes these deps first; this binds them, so a route calls
 * `webhooks.create(auth, input, actor)`.
 *
 * @example
 * ```ts
 * const webhooks = createWebhooksService({ ...kernel, sealingKey, rotationGraceMs: 86_400_000, maxAttempts: 6 });
 * const { row, secret } = await webhooks.create(auth, { url: 'https://example.com/hook', events: ['demo.published'] }, actor);
 * await webhooks.sendTest(auth, row.id); // one webhook.test delivery, to this webhook only
 * ```
 */
export function createWebhooksService(deps: WebhooksDeps) {
  const bound =
    <A extends unknown[], R>(verb: (deps: WebhooksDeps, ...args: A) => R) =>
    (...args: A): R =>
      verb(deps, ...args);

  return {
    /** A page of the workspace's webhooks. */
    list: (auth: AuthContext, page: LimitOffset) =>
      repo.listWebhooks(deps.reads?.reader(auth.workspaceId) ?? deps.database.db, auth.workspaceId, page),
    get: (auth: AuthContext, id: string) => findOwnWebhook(deps.database.db, auth, id),
    create: bound(createWebhook),
    update: bound(updateWebhook),
    remove: bound(deleteWebhook),
    rotateSecret: bound(rotateWebhookSecret),
    sendTest: bound(sendTestEvent),
    listDeliveries: bound(listDeliveries),
    getDelivery: bound(getDelivery),
    redeliver: bound(redeliver),
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
