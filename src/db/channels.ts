/**
 * NOTIFY channel announcing committed events, so the webhooks dispatcher in any process wakes at commit
 * instead of at its next poll. Sent in the event's transaction: a rollback sends nothing. Here, below every
 * domain, because two writers send it: the outbox (events/outbox.ts) and the audit recorder, which sits
 * below the domains that `events` depends on and so writes its `audit.entry` events in SQL.
 */
export const EVENTS_CHANNEL = 'demoshare_events';
