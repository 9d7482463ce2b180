/**
 * The Demoshare SDK: a typed client of the REST API and helpers to receive its webhooks.
 *
 * @example
 * ```ts
 * import { createClient } from '@demoshare/sdk';
 * const client = createClient({ baseUrl: 'https://demos.example.com', apiKey: process.env.DEMOSHARE_API_KEY! });
 * for await (const demo of client.demos.list()) console.log(demo.title);
 * ```
 * @packageDocumentation
 */
export { type ClientOptions, type CommonOptions, createClient, type DemoshareClient } from './client.js';
export {
  AuthenticationError,
  ConflictError,
  DemoshareError,
  type ErrorCode,
  type ErrorDetail,
  errorFromResponse,
  InvalidRequestError,
  NotFoundError,
  OAuthError,
  type OAuthErrorCode,
  PermissionError,
  RateLimitError,
  retryAfterSeconds,
  ServerError,
} from './errors.js';
export {
  type AuditEntryEvent,
  type DemoCompletedEvent,
  type DemoCreatedEvent,
  type DemoDeletedEvent,
  type DemoGeneratedEvent,
  type DemoStaleEvent,
  type DemoPublishedEvent,
  type DemoUpdatedEvent,
  type DemoViewedEvent,
  type LeadCapturedEvent,
  type MemberInvitedEvent,
  type ShareCreatedEvent,
  type ShareRevokedEvent,
  type ViewerIdentifiedEvent,
  type ViewerIdentifiedOnHub,
  type ViewerIdentifiedOnLink,
  WEBHOOK_EVENT_KINDS,
  type WebhookEvent,
  type WebhookEventBase,
  type WebhookEventKind,
  type WebhookEventOf,
  type WebhookTestEvent,
} from './events.js';
export {
  type AuthorizationUrlOptions,
  authorizationUrl,
  createPkce,
  type ExchangeCodeOptions,
  exchangeCode,
  type OAuthCredentials,
  revokeToken,
  type TokenSet,
} from './oauth.js';
export { type ListMeta, type Page, PageIterator, type PageQuery } from './pagination.js';
export { unwrap } from './request.js';
export type { AuditFeedPage } from './resources/audit-log.js';
export type { NewStep, StepImage } from './resources/demos.js';
export type { RetryOptions } from './transport.js';
export type {
  Analytics,
  AuditEntry,
  CompanyAnalytics,
  components,
  CreatedOAuthApp,
  Demo,
  DemoDetail,
  DemoVersion,
  Hotspot,
  LinkAnalytics,
  OAuthApp,
  paths,
  QueryParams,
  Recording,
  RequestBody,
  Share,
  ShareAccessLogEntry,
  Step,
  TeamMember,
  View,
  ViewerErasure,
  ViewJourney,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookWithSecret,
  WorkspaceAnalytics,
} from './types.js';
export {
  parseWebhookEvent,
  standardWebhooksSecret,
  type VerifyWebhookOptions,
  verifyServiceSignature,
  verifyStandardSignature,
  verifyWebhook,
  type WebhookHeaders,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './webhooks.js';
