import { PageIterator } from '../pagination.js';
import { type ResourceContext, unwrap } from '../request.js';
import type { QueryParams, Recording, RequestBody, TeamMember, Webhook, WebhookDelivery, WebhookWithSecret } from '../types.js';

/** Webhooks (admins, scope `webhooks:write`): subscriptions, secrets, tests and the delivery log. */
export function webhooksResource(ctx: ResourceContext) {
  const { api } = ctx;
  const path = (id: string) => ({ params: { path: { id } } });
  const delivery = (id: string, delivery_id: string) => ({ params: { path: { id, delivery_id } } });
  return {
    /**
     * The workspace's webhooks.
     * @example
     * ```ts
     * for await (const hook of client.webhooks.list()) console.log(hook.url, hook.active);
     * ```
     */
    list(query: QueryParams<'/v1/webhooks', 'get'> = {}): PageIterator<Webhook> {
      return new PageIterator((page) => unwrap(api.GET('/v1/webhooks', { params: { query: { ...query, ...page } } })), query);
    },
    /**
     * A new webhook; the answer carries its `secret` (generated unless given), shown this once.
     * @example
     * ```ts
     * const hook = await client.webhooks.create({ url: 'https://crm.example.com/hooks/demoshare', events: ['demo.viewed', 'demo.completed'] });
     * await vault.save('demoshare-webhook-secret', hook.secret);
     * ```
     */
    async create(body: RequestBody<'/v1/webhooks', 'post'>): Promise<WebhookWithSecret> {
      return (await unwrap(api.POST('/v1/webhooks', { body }))).data;
    },
    /**
     * One webhook (never its secret).
     * @example
     * ```ts
     * const hook = await client.webhooks.get('whk_01jd3k7q9x8v2m4n6p0r5s7t9w');
     * ```
     */
    async get(id: string): Promise<Webhook> {
      return (await unwrap(api.GET('/v1/webhooks/{id}', path(id)))).data;
    },
    /**
     * Changes the url or events, or (`active: true`) re-enables a disabled webhook.
     * @example
     * ```ts
     * await client.webhooks.update(hookId, { active: true });
     * ```
     */
    async update(id: string, body: RequestBody<'/v1/webhooks/{id}', 'patch'>): Promise<Webhook> {
      return (await unwrap(api.PATCH('/v1/webhooks/{id}', { ...path(id), body }))).data;
    },
    /**
     * Deletes the webhook with its pending deliveries and log.
     * @example
     * ```ts
     * await client.webhooks.delete(hookId);
     * ```
     */
    async delete(id: string): Promise<void> {
      await unwrap(api.DELETE('/v1/webhooks/{id}', path(id)));
    },
    /**
     * A new secret (generated unless given), shown this once; the old one signs too during the grace period.
     * @example
     * ```ts
     * const { secret } = await client.webhooks.rotateSecret(hookId);
     * ```
     */
    async rotateSecret(id: string, body: RequestBody<'/v1/webhooks/{id}/rotate-secret', 'post'> = {}): Promise<WebhookWithSecret> {
      return (await unwrap(api.POST('/v1/webhooks/{id}/rotate-secret', { ...path(id), body }))).data;
    },
    /**
     * Queues a `webhook.test` delivery to this webhook only.
     * @example
     * ```ts
     * const queued = await client.webhooks.test(hookId);
     * console.log(queued.event_id);
     * ```
     */
    async test(id: string): Promise<WebhookDelivery> {
      return (await unwrap(api.POST('/v1/webhooks/{id}/test', path(id)))).data;
    },
    /**
     * The delivery log, newest first, optionally by `status`.
     * @example
     * ```ts
     * for await (const d of client.webhooks.deliveries(hookId, { status: 'failed' })) await client.webhooks.redeliver(hookId, d.id);
     * ```
     */
    deliveries(id: string, query: QueryParams<'/v1/webhooks/{id}/deliveries', 'get'> = {}): PageIterator<WebhookDelivery> {
      return new PageIterator(
        (page) => unwrap(api.GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query: { ...query, ...page } } })),
        query,
      );
    },
    /**
     * One delivery with every attempt.
     * @example
     * ```ts
     * const d = await client.webhooks.delivery(hookId, 'dlv_01jd3k7q9x8v2m4n6p0r5s7t9w');
     * ```
     */
    async delivery(id: string, deliveryId: string): Promise<WebhookDelivery> {
      return (await unwrap(api.GET('/v1/webhooks/{id}/deliveries/{delivery_id}', delivery(id, deliveryId)))).data;
    },
    /**
     * Sends a delivery's body again (same `webhook-id`).
     * @example
     * ```ts
     * await client.webhooks.redeliver(hookId, deliveryId);
     * ```
     */
    async redeliver(id: string, deliveryId: string): Promise<WebhookDelivery> {
      return (await unwrap(api.POST('/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver', delivery(id, deliveryId)))).data;
    },
  };
}

/** The team: members and invitations (reading needs `team:read`, changes `team:write` and the admin role). */
export function teamResource(ctx: ResourceContext) {
  const { api } = ctx;
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    /**
     * Members and pending invitations.
     * @example
     * ```ts
     * for await (const member of client.team.list()) console.log(member.email, member.role, member.status);
     * ```
     */
    list(query: QueryParams<'/v1/team/members', 'get'> = {}): PageIterator<TeamMember> {
      return new PageIterator((page) => unwrap(api.GET('/v1/team/members', { params: { query: { ...query, ...page } } })), query);
    },
    /**
     * Invites someone by e-mail with a role.
     * @example
     * ```ts
     * await client.team.invite({ email: 'ada@example.com', role: 'editor' });
     * ```
     */
    async invite(body: RequestBody<'/v1/team/members', 'post'>): Promise<TeamMember> {
      return (await unwrap(api.POST('/v1/team/members', { body }))).data;
    },
    /**
     * Changes a member's role (the last admin cannot be demoted: 409).
     * @example
     * ```ts
     * await client.team.update(memberId, { role: 'viewer' });
     * ```
     */
    async update(id: string, body: RequestBody<'/v1/team/members/{id}', 'patch'>): Promise<TeamMember> {
      return (await unwrap(api.PATCH('/v1/team/members/{id}', { ...path(id), body }))).data;
    },
    /**
     * Removes a member (their keys and tokens stop working) or withdraws an invitation.
     * @example
     * ```ts
     * await client.team.remove(memberId);
     * ```
     */
    async remove(id: string): Promise<void> {
      await unwrap(api.DELETE('/v1/team/members/{id}', path(id)));
    },
    /**
     * Sends a pending invitation again, with a new link.
     * @example
     * ```ts
     * await client.team.resendInvitation(memberId);
     * ```
     */
    async resendInvitation(id: string): Promise<TeamMember> {
      return (await unwrap(api.POST('/v1/team/members/{id}/invitation', path(id)))).data;
    },
    /**
     * Revokes a pending invitation's link.
     * @example
     * ```ts
     * await client.team.revokeInvitation(memberId);
     * ```
     */
    async revokeInvitation(id: string): Promise<void> {
      await unwrap(api.DELETE('/v1/team/members/{id}/invitation', path(id)));
    },
  };
}

const base64 = (bytes: Uint8Array) => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};

/** Recording uploads (docs/recording-upload.md): announce, upload each step, complete. */
export function recordingsResource(ctx: ResourceContext) {
  const { api } = ctx;
  const path = (id: string) => ({ params: { path: { id } } });
  return {
    /**
     * Announces a recording of `step_count` steps: a new demo, or steps for an existing one.
     * @example
     * ```ts
     * const recording = await client.recordings.create({ step_count: 3, title: 'Checkout' });
     * ```
     */
    async create(body: RequestBody<'/v1/recordings', 'post'>): Promise<Recording> {
      return (await unwrap(api.POST('/v1/recordings', { body }))).data;
    },
    /**
     * The recording's state: which steps arrived, which are missing.
     * @example
     * ```ts
     * const { missing } = await client.recordings.get(recordingId);
     * ```
     */
    async get(id: string): Promise<Recording> {
      return (await unwrap(api.GET('/v1/recordings/{id}', path(id)))).data;
    },
    /**
     * Abandons a recording and its uploaded steps.
     * @example
     * ```ts
     * await client.recordings.delete(recordingId);
     * ```
     */
    async delete(id: string): Promise<void> {
      await unwrap(api.DELETE('/v1/recordings/{id}', path(id)));
    },
    /**
     * Uploads step `number` (1-based); the `Content-Digest` the server requires is computed here over the
     * exact bytes sent. Sending the same step again is harmless (resume after a failure).
     * @example
     * ```ts
     * await client.recordings.uploadStep(recordingId, 1, { action: 'click', title: 'Open settings', page_url: 'https://app.example.com', screenshot });
     * ```
     */
    async uploadStep(id: string, number: number, body: RequestBody<'/v1/recordings/{id}/steps/{number}', 'put'>): Promise<Recording> {
      const text = JSON.stringify(body);
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
      const header = { 'content-digest': `sha-256=:${base64(digest)}:` };
      return (await unwrap(api.PUT('/v1/recordings/{id}/steps/{number}', { params: { path: { id, number }, header }, body, bodySerializer: () => text }))).data;
    },
    /**
     * Builds the demo from the uploaded steps (409 `recording_incomplete` lists what is missing).
     * @example
     * ```ts
     * const done = await client.recordings.complete(recordingId);
     * console.log(done.demo_id, done.editor_url);
     * ```
     */
    async complete(id: string): Promise<Recording> {
      return (await unwrap(api.POST('/v1/recordings/{id}/complete', path(id)))).data;
    },
  };
}
