import type { components, paths } from './schema.js';

type Schemas = components['schemas'];

/**
 * A demo as lists show it. The types of this module are the OpenAPI document's schemas, by name.
 *
 * @example
 * ```ts
 * import type { Demo } from '@demoshare/sdk';
 * const titles = (demos: Demo[]) => demos.map((d) => `${d.title} (${d.status})`);
 * ```
 */
export type Demo = Schemas['Demo'];
/**
 * A demo with its draft `steps`, `hotspots` and `configuration` (GET /v1/demos/:id and every change).
 *
 * @example
 * ```ts
 * import type { DemoDetail } from '@demoshare/sdk';
 * const demo: DemoDetail = await client.demos.get('demo_01jd3k7q9x8v2m4n6p0r5s7t9w');
 * console.log(demo.steps.length);
 * ```
 */
export type DemoDetail = Schemas['DemoDetail'];
/**
 * One step of a demo.
 *
 * @example
 * ```ts
 * import type { Step } from '@demoshare/sdk';
 * const step: Step = await client.steps.create(demoId, { title: 'Open the invoice' });
 * ```
 */
export type Step = Schemas['Step'];
/**
 * A clickable area of a step.
 *
 * @example
 * ```ts
 * import type { Hotspot } from '@demoshare/sdk';
 * const hotspot: Hotspot = await client.hotspots.create(demoId, stepId, { x: 0.1, y: 0.2, width: 0.2, height: 0.1 });
 * ```
 */
export type Hotspot = Schemas['Hotspot'];
/**
 * A published version of a demo.
 *
 * @example
 * ```ts
 * import type { DemoVersion } from '@demoshare/sdk';
 * const versions: DemoVersion[] = await client.demos.versions(demoId).toArray();
 * ```
 */
export type DemoVersion = Schemas['DemoVersion'];
/**
 * A share link of a demo (its password is never returned).
 *
 * @example
 * ```ts
 * import type { Share } from '@demoshare/sdk';
 * const share: Share = await client.shares.create(demoId, { name: 'Prospects' });
 * console.log(share.url);
 * ```
 */
export type Share = Schemas['Share'];
/**
 * One access decision of a share link (granted, denied, wrong password, expired).
 *
 * @example
 * ```ts
 * import type { ShareAccessLogEntry } from '@demoshare/sdk';
 * for await (const entry of client.shares.accessLog(shareId)) console.log((entry as ShareAccessLogEntry).decision);
 * ```
 */
export type ShareAccessLogEntry = Schemas['ShareAccessLogEntry'];
/**
 * One viewer session on one demo.
 *
 * @example
 * ```ts
 * import type { View } from '@demoshare/sdk';
 * const completed = (views: View[]) => views.filter((v) => v.completed);
 * ```
 */
export type View = Schemas['View'];
/**
 * The path of one view through the demo's steps.
 *
 * @example
 * ```ts
 * import type { ViewJourney } from '@demoshare/sdk';
 * const journey: ViewJourney = await client.views.journey(demoId, viewId);
 * ```
 */
export type ViewJourney = Schemas['ViewJourney'];
/**
 * What a viewer erasure removed, counted (POST /v1/viewer-erasures).
 *
 * @example
 * ```ts
 * import type { ViewerErasure } from '@demoshare/sdk';
 * const erased: ViewerErasure = await client.views.eraseViewer('ada@example.com');
 * ```
 */
export type ViewerErasure = Schemas['ViewerErasure'];
/**
 * A demo's analytics (GET /v1/demos/:id/analytics).
 *
 * @example
 * ```ts
 * import type { Analytics } from '@demoshare/sdk';
 * const a: Analytics = await client.analytics.demo(demoId, { start_date: '2026-11-01' });
 * console.log(a.completion_rate);
 * ```
 */
export type Analytics = Schemas['Analytics'];
/**
 * The workspace overview (GET /v1/analytics).
 *
 * @example
 * ```ts
 * import type { WorkspaceAnalytics } from '@demoshare/sdk';
 * const overview: WorkspaceAnalytics = await client.analytics.workspace();
 * ```
 */
export type WorkspaceAnalytics = Schemas['WorkspaceAnalytics'];
/**
 * A demo's figures for one share link (GET /v1/demos/:id/analytics/links answers a list of them).
 *
 * @example
 * ```ts
 * import type { LinkAnalytics } from '@demoshare/sdk';
 * const perLink: LinkAnalytics[] = await client.analytics.links(demoId);
 * ```
 */
export type LinkAnalytics = Schemas['LinkAnalytics'];
/**
 * A demo's figures for one viewer company (GET /v1/demos/:id/analytics/companies answers a list of them).
 *
 * @example
 * ```ts
 * import type { CompanyAnalytics } from '@demoshare/sdk';
 * const perCompany: CompanyAnalytics[] = await client.analytics.companies(demoId);
 * ```
 */
export type CompanyAnalytics = Schemas['CompanyAnalytics'];
/**
 * A webhook (never with its secret).
 *
 * @example
 * ```ts
 * import type { Webhook } from '@demoshare/sdk';
 * const hooks: Webhook[] = await client.webhooks.list().toArray();
 * ```
 */
export type Webhook = Schemas['Webhook'];
/**
 * One audit log entry: who did what to which record, when and from where (`GET /v1/audit-log`, scope
 * `audit:read`, admins only), and the `data` of an `audit.entry` webhook event.
 *
 * @example
 * ```ts
 * import type { AuditEntry } from '@demoshare/sdk';
 * const line = (e: AuditEntry) => `${e.created_at} ${e.actor.label} ${e.action} ${e.target.label ?? ''}`;
 * ```
 */
export type AuditEntry = Schemas['AuditEntry'];
/**
 * A webhook with its `secret` and `standard_webhooks_secret`: the answer of create and rotate-secret, the
 * only time the secret is shown.
 *
 * @example
 * ```ts
 * import type { WebhookWithSecret } from '@demoshare/sdk';
 * const hook: WebhookWithSecret = await client.webhooks.create({ url: 'https://crm.example.com/hooks', events: ['demo.completed'] });
 * await vault.save('demoshare-webhook', hook.secret);
 * ```
 */
export type WebhookWithSecret = Schemas['WebhookWithSecret'];
/**
 * One delivery of an event to a webhook, with its attempts.
 *
 * @example
 * ```ts
 * import type { WebhookDelivery } from '@demoshare/sdk';
 * const failed: WebhookDelivery[] = await client.webhooks.deliveries(hookId, { status: 'failed' }).toArray();
 * ```
 */
export type WebhookDelivery = Schemas['WebhookDelivery'];
/**
 * One attempt of a delivery.
 *
 * @example
 * ```ts
 * import type { WebhookAttempt } from '@demoshare/sdk';
 * const last = (attempts: WebhookAttempt[]) => attempts[attempts.length - 1];
 * ```
 */
export type WebhookAttempt = Schemas['WebhookAttempt'];
/**
 * A member (or invited person) of the workspace.
 *
 * @example
 * ```ts
 * import type { TeamMember } from '@demoshare/sdk';
 * const admins = (await client.team.list().toArray()).filter((m: TeamMember) => m.role === 'admin');
 * ```
 */
export type TeamMember = Schemas['TeamMember'];
/**
 * A recording upload in progress (see docs/recording-upload.md).
 *
 * @example
 * ```ts
 * import type { Recording } from '@demoshare/sdk';
 * const recording: Recording = await client.recordings.get('rec_...');
 * ```
 */
export type Recording = Schemas['Recording'];

/**
 * An OAuth app registered by the workspace (never with its secret).
 *
 * @example
 * ```ts
 * import type { OAuthApp } from '@demoshare/sdk';
 * const apps: OAuthApp[] = await client.oauthApps.list().toArray();
 * ```
 */
export type OAuthApp = Schemas['OAuthApp'];
/**
 * An OAuth app with its `client_secret`: the answer of create and rotate-secret, the only time it is shown.
 *
 * @example
 * ```ts
 * import type { CreatedOAuthApp } from '@demoshare/sdk';
 * const app: CreatedOAuthApp = await client.oauthApps.create({ name: 'Acme CRM', redirect_uris: ['https://crm.example.com/cb'], scopes: ['demos:read'] });
 * ```
 */
export type CreatedOAuthApp = Schemas['CreatedOAuthApp'];

/**
 * Every schema of the OpenAPI document, by name, and every path with its operations: for what the
 * named aliases above do not cover, with the typed `client.api`.
 *
 * @example
 * ```ts
 * import type { components, paths } from '@demoshare/sdk';
 * type Invitation = components['schemas']['Invitation'];
 * type DemoQuery = paths['/v1/demos']['get']['parameters']['query'];
 * ```
 */
export type { components, paths };

type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;

/**
 * The JSON body an operation takes.
 *
 * @example
 * ```ts
 * import type { RequestBody } from '@demoshare/sdk';
 * const body: RequestBody<'/v1/demos', 'post'> = { title: 'Onboarding', source_url: 'https://example.com' };
 * ```
 */
export type RequestBody<P extends keyof paths, M extends Method> = Operation<P, M> extends { requestBody?: infer R }
  ? NonNullable<R> extends { content: { 'application/json': infer B } }
    ? B
    : never
  : never;

/**
 * The query parameters an operation takes.
 *
 * @example
 * ```ts
 * import type { QueryParams } from '@demoshare/sdk';
 * const query: QueryParams<'/v1/demos', 'get'> = { status: 'published', search: 'pricing' };
 * ```
 */
export type QueryParams<P extends keyof paths, M extends Method> = Operation<P, M> extends { parameters: { query?: infer Q } }
  ? NonNullable<Q>
  : never;
