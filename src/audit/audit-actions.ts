/**
 * Every action the audit log records, one list: the API's `action` filter, the OpenAPI enum and the
 * recorder's type come from it. Dotted `<target>.<verb>`; add a row here before recording a new one.
 */
export const AUDIT_ACTIONS = [
  // Recorded by accounts (sign-in, passwords, e-mail, sessions).
  'user.signed_in',
  'user.sign_in_failed',
  'user.password_changed',
  'user.password_reset',
  'user.email_changed',
  'user.links_ended',
  'session.revoked',
  'member.joined',
  // API keys
  'key.created',
  'key.rotated',
  'key.revoked',
  // Team
  'member.invited',
  'member.role_changed',
  'member.removed',
  'invitation.resent',
  'invitation.revoked',
  // Demos and their links
  'demo.published',
  'demo.unpublished',
  'demo.deleted',
  'demo.redacted',
  'share.created',
  'share.changed',
  'share.revoked',
  // Hubs (a public page behind the gates of a link) and A/B tests on links
  'hub.created',
  'hub.changed',
  'hub.deleted',
  'experiment.started',
  'experiment.stopped',
  'experiment.deleted',
  // Webhooks
  'webhook.created',
  'webhook.changed',
  'webhook.secret_rotated',
  'webhook.deleted',
  // OAuth
  'oauth_app.created',
  'oauth_app.secret_rotated',
  'oauth_app.deleted',
  'oauth_app.verified',
  'oauth_app.unverified',
  'grant.revoked',
  // Workspace settings
  'workspace.changed',
  // Custom domains
  'domain.added',
  'domain.verified',
  'domain.changed',
  'domain.unverified',
  'domain.removed',
  // Viewer data
  'data.erased',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry can be about. */
export const AUDIT_TARGET_TYPES = [
  'user',
  'session',
  'member',
  'api_key',
  'demo',
  'share',
  'webhook',
  'oauth_app',
  'oauth_grant',
  'workspace',
  'viewer',
  'domain',
  'hub',
  'experiment',
] as const;

export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

export const ACTOR_TYPES = ['user', 'api_key', 'oauth_app', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];
