/** Every event kind a webhook can subscribe to: the contract's two first, then Demoshare's additions. */
export const EVENT_KINDS = [
  'demo.viewed',
  'demo.completed',
  'demo.created',
  'demo.updated',
  'demo.published',
  'demo.deleted',
  'demo.generated',
  'share.created',
  'share.revoked',
  'viewer.identified',
  'member.invited',
  'webhook.test',
] as const;

export type EventKind = (typeof EVENT_KINDS)[number];
