// The payload of each webhook event, written by hand; the list of kinds is generated (event-kinds.ts), and
// the type check at the end fails the SDK's build when the two disagree.
import type { WEBHOOK_EVENT_KINDS } from './event-kinds.js';
import type { AuditEntry } from './types.js';

export { WEBHOOK_EVENT_KINDS } from './event-kinds.js';

/**
 * The body of one delivery: `{id, event, timestamp, data}`, `data` depending on `event`.
 *
 * @example
 * ```ts
 * import type { WebhookEventBase } from '@demoshare/sdk';
 * type Custom = WebhookEventBase<'demo.viewed', { demo_id: string }>;
 * ```
 */
export interface WebhookEventBase<K extends string, D> {
  /** The event id (`evt_...`), also the `webhook-id` header: de-duplicate on it. */
  id: string;
  event: K;
  /** When the event happened, ISO 8601 UTC. */
  timestamp: string;
  data: D;
}

type DemoStatus = 'generating' | 'draft' | 'published' | 'archived';

/**
 * A viewer started a view (the contract's event).
 * @example
 * ```ts
 * import type { DemoViewedEvent } from '@demoshare/sdk';
 * const who = (e: DemoViewedEvent) => e.data.viewer_email ?? 'anonymous';
 * ```
 */
export type DemoViewedEvent = WebhookEventBase<
  'demo.viewed',
  { demo_id: string; view_id: string; share_id: string | null; viewer_email: string | null; viewer_name: string | null; started_at: string }
>;
/**
 * A viewer reached the end of the last step (the contract's event); `completion_time` in seconds.
 * @example
 * ```ts
 * import type { DemoCompletedEvent } from '@demoshare/sdk';
 * const minutes = (e: DemoCompletedEvent) => e.data.completion_time / 60;
 * ```
 */
export type DemoCompletedEvent = WebhookEventBase<
  'demo.completed',
  { demo_id: string; view_id: string; share_id: string | null; viewer_email: string | null; completion_time: number }
>;
/**
 * A demo was created (by the API, the web app or a recording).
 * @example
 * ```ts
 * import type { DemoCreatedEvent } from '@demoshare/sdk';
 * const generated = (e: DemoCreatedEvent) => e.data.generate_with_ai;
 * ```
 */
export type DemoCreatedEvent = WebhookEventBase<
  'demo.created',
  { demo_id: string; title: string; status: DemoStatus; source_url: string | null; generate_with_ai: boolean }
>;
/**
 * A demo's draft changed: `changes` names what (`title`, `configuration`, `status`, `steps`).
 * @example
 * ```ts
 * import type { DemoUpdatedEvent } from '@demoshare/sdk';
 * const stepsChanged = (e: DemoUpdatedEvent) => e.data.changes.includes('steps');
 * ```
 */
export type DemoUpdatedEvent = WebhookEventBase<
  'demo.updated',
  { demo_id: string; changes: string[]; status: DemoStatus; title: string; restored_version?: number }
>;
/**
 * A version of a demo was published.
 * @example
 * ```ts
 * import type { DemoPublishedEvent } from '@demoshare/sdk';
 * const label = (e: DemoPublishedEvent) => `${e.data.title} v${e.data.version}`;
 * ```
 */
export type DemoPublishedEvent = WebhookEventBase<
  'demo.published',
  { demo_id: string; title: string; published_at: string; version: number }
>;
/**
 * A demo was deleted.
 * @example
 * ```ts
 * import type { DemoDeletedEvent } from '@demoshare/sdk';
 * const forget = (e: DemoDeletedEvent) => cache.delete(e.data.demo_id);
 * ```
 */
export type DemoDeletedEvent = WebhookEventBase<'demo.deleted', { demo_id: string; title: string }>;
/**
 * Generation finished: `succeeded` with `step_count` steps, or `failed` with `error`.
 * @example
 * ```ts
 * import type { DemoGeneratedEvent } from '@demoshare/sdk';
 * const ok = (e: DemoGeneratedEvent) => e.data.status === 'succeeded';
 * ```
 */
export type DemoGeneratedEvent = WebhookEventBase<
  'demo.generated',
  {
    demo_id: string;
    status: 'succeeded' | 'failed';
    step_count: number;
    error?: string;
    capture_mode?: string;
    writer?: string;
    warnings?: string[];
  }
>;
/**
 * A stale-demo check found steps that no longer match the pages they were made from (docs/stale-check.md):
 * each listed step is `changed` (`reasons`: text_changed, box_moved, image_changed), `missing`
 * (target_missing) or `unreachable` (login_required, not_found, http_error, blocked, timeout, unreachable).
 * GET /v1/demos/{demo_id}/checks/{check_id} has the figures.
 * @example
 * ```ts
 * import type { DemoStaleEvent } from '@demoshare/sdk';
 * const behindLogin = (e: DemoStaleEvent) => e.data.steps.filter((s) => s.reasons.includes('login_required'));
 * ```
 */
export type DemoStaleEvent = WebhookEventBase<
  'demo.stale',
  {
    demo_id: string;
    check_id: string;
    title: string;
    trigger: 'api' | 'schedule';
    stale_steps: number;
    checked_steps: number;
    steps: Array<{ step_id: string; number: number; page_url: string; status: 'changed' | 'missing' | 'unreachable'; reasons: string[] }>;
    checked_at: string;
  }
>;
/**
 * A share link was created.
 * @example
 * ```ts
 * import type { ShareCreatedEvent } from '@demoshare/sdk';
 * const gated = (e: ShareCreatedEvent) => e.data.has_password || e.data.require_identification;
 * ```
 */
export type ShareCreatedEvent = WebhookEventBase<
  'share.created',
  { share_id: string; demo_id: string; name: string; has_password: boolean; expires_at: string | null; require_identification: boolean }
>;
/**
 * A share link was revoked.
 * @example
 * ```ts
 * import type { ShareRevokedEvent } from '@demoshare/sdk';
 * const when = (e: ShareRevokedEvent) => new Date(e.data.revoked_at);
 * ```
 */
export type ShareRevokedEvent = WebhookEventBase<'share.revoked', { share_id: string; demo_id: string; revoked_at: string }>;
/**
 * `viewer.identified` on a link: its identification gate, or a lead form that identifies.
 * @example
 * ```ts
 * import type { ViewerIdentifiedOnLink } from '@demoshare/sdk';
 * const demoOf = (data: ViewerIdentifiedOnLink) => data.demo_id;
 * ```
 */
export interface ViewerIdentifiedOnLink {
  share_id: string;
  demo_id: string;
  viewer_email: string;
  viewer_name: string;
  identified_at: string;
  hub_id?: undefined;
}
/**
 * `viewer.identified` on a demo hub's gate (docs/hubs.md): no link or demo yet, the hub and its lead form's answers.
 * @example
 * ```ts
 * import type { ViewerIdentifiedOnHub } from '@demoshare/sdk';
 * const company = (data: ViewerIdentifiedOnHub) => data.values.company ?? null;
 * ```
 */
export interface ViewerIdentifiedOnHub {
  share_id: null;
  demo_id: null;
  viewer_email: string;
  viewer_name: string;
  identified_at: string;
  hub_id: string;
  /** The hub's name in the workspace. */
  hub_name: string;
  /** The lead form's answers, only the fields the hub asks. */
  values: { company?: string; job_title?: string; phone?: string };
}
/**
 * A viewer identified: on a link, or on a demo hub (then `hub_id` is set and `share_id`, `demo_id` are null).
 * @example
 * ```ts
 * import type { ViewerIdentifiedEvent } from '@demoshare/sdk';
 * const lead = (e: ViewerIdentifiedEvent) => ({ email: e.data.viewer_email, company: e.data.hub_id ? e.data.values.company : undefined });
 * ```
 */
export type ViewerIdentifiedEvent = WebhookEventBase<'viewer.identified', ViewerIdentifiedOnLink | ViewerIdentifiedOnHub>;
/**
 * A viewer sent a lead form of a published demo (docs/leads.md). `values` holds every answered field by
 * name (checkboxes as booleans); `email` and `name` are what the form says of who they are, when it asks.
 * @example
 * ```ts
 * import type { LeadCapturedEvent } from '@demoshare/sdk';
 * const toCrm = (e: LeadCapturedEvent) => ({ email: e.data.email, company: e.data.values.company });
 * ```
 */
export type LeadCapturedEvent = WebhookEventBase<
  'lead.captured',
  {
    lead_id: string;
    demo_id: string;
    share_id: string;
    view_id: string | null;
    step_number: number;
    email: string | null;
    name: string | null;
    values: Record<string, string | boolean>;
    created_at: string;
  }
>;
/**
 * Someone was invited to the workspace.
 * @example
 * ```ts
 * import type { MemberInvitedEvent } from '@demoshare/sdk';
 * const text = (e: MemberInvitedEvent) => `${e.data.email} invited as ${e.data.role}`;
 * ```
 */
export type MemberInvitedEvent = WebhookEventBase<
  'member.invited',
  { member_id: string; email: string; role: 'admin' | 'editor' | 'viewer'; invited_by: string }
>;
/**
 * The test event of POST /v1/webhooks/:id/test.
 * @example
 * ```ts
 * import type { WebhookTestEvent } from '@demoshare/sdk';
 * const hookOf = (e: WebhookTestEvent) => e.data.webhook_id;
 * ```
 */
export type WebhookTestEvent = WebhookEventBase<'webhook.test', { webhook_id: string; message: string }>;
/**
 * A new audit log entry, as `GET /v1/audit-log` shows it (Demoshare's event, for a SIEM; docs/audit-log.md).
 * Delivered at least once: de-duplicate on `data.id`.
 * @example
 * ```ts
 * import type { AuditEntryEvent } from '@demoshare/sdk';
 * const forSiem = (e: AuditEntryEvent) => ({ ...e.data, source: 'demoshare' });
 * ```
 */
export type AuditEntryEvent = WebhookEventBase<'audit.entry', AuditEntry>;

/**
 * Any event a webhook receives, discriminated by `event`: `switch (e.event)` narrows `data`.
 *
 * @example
 * ```ts
 * import type { WebhookEvent } from '@demoshare/sdk';
 * function handle(e: WebhookEvent) {
 *   switch (e.event) {
 *     case 'demo.completed': return crm.note(e.data.viewer_email, `finished in ${e.data.completion_time} s`);
 *     case 'viewer.identified': return crm.lead(e.data.viewer_email, e.data.viewer_name);
 *   }
 * }
 * ```
 */
export type WebhookEvent =
  | DemoViewedEvent
  | DemoCompletedEvent
  | DemoCreatedEvent
  | DemoUpdatedEvent
  | DemoPublishedEvent
  | DemoDeletedEvent
  | DemoGeneratedEvent
  | DemoStaleEvent
  | ShareCreatedEvent
  | ShareRevokedEvent
  | ViewerIdentifiedEvent
  | LeadCapturedEvent
  | MemberInvitedEvent
  | WebhookTestEvent
  | AuditEntryEvent;

/**
 * The kind of an event: `'demo.viewed' | 'demo.completed' | ...`.
 *
 * @example
 * ```ts
 * import type { WebhookEventKind } from '@demoshare/sdk';
 * const subscribed: WebhookEventKind[] = ['demo.viewed', 'demo.completed'];
 * ```
 */
export type WebhookEventKind = WebhookEvent['event'];

/**
 * The event type of one kind.
 *
 * @example
 * ```ts
 * import type { WebhookEventOf } from '@demoshare/sdk';
 * const onCompleted = (e: WebhookEventOf<'demo.completed'>) => e.data.completion_time;
 * ```
 */
export type WebhookEventOf<K extends WebhookEventKind> = Extract<WebhookEvent, { event: K }>;

/** `true` only when `A` and `B` name the same kinds. */
type SameKinds<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Fails to compile when a generated kind has no event type above, or an event type names a kind the server
// does not send: after an event kind is added on the server and `npm run sdk:generate` run, write its type.
const everyKindHasAnEventType: SameKinds<WebhookEventKind, (typeof WEBHOOK_EVENT_KINDS)[number]> = true;
void everyKindHasAnEventType;
