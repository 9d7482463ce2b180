/** Every event kind a webhook can subscribe to: the contract's two first, then Demoshare's additions. */
export const EVENT_KINDS = [
  'demo.viewed',
  'demo.completed',
  'demo.created',
  'demo.updated',
  'demo.published',
  'demo.deleted',
  'demo.generated',
  /** A stale-demo check found steps that no longer match their pages (src/staleness, docs/stale-check.md). */
  'demo.stale',
  'share.created',
  'share.revoked',
  'viewer.identified',
  /** A viewer sent a lead form of a published demo (src/leads, docs/leads.md). */
  'lead.captured',
  'member.invited',
  'webhook.test',
  /**
   * Every audit log entry as it is written, `data` being the entry as `GET /v1/audit-log` shows it: a SIEM's
   * stream. Written by the audit recorder (audit.repo.ts, in SQL) in the entry's transaction, and only
   * while a webhook of the workspace subscribes to it.
   */
  'audit.entry',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];
