import { z } from 'zod';
import { withoutNul } from '../core/text';

export const erasureBody = z
  .object({
    email: withoutNul(z.email())
      .max(254)
      .meta({ description: 'The viewer’s address, in any case: compared in lower case, as the viewer page stores it.' }),
  })
  .strict()
  .meta({ examples: [{ email: 'ana@globex.com' }] });

const count = (description: string) => z.number().int().min(0).meta({ description });

export const erasureSchema = z
  .object({
    views: count('Views removed: the address’s, and those of its viewer sessions begun before it identified.'),
    step_times: count('Per-step rows of those views (time spent on each step).'),
    viewer_sessions: count('Viewer sessions removed, on links and on hubs (the viewer is signed out of the share page and the hub; a hub session holds the lead form’s answers too).'),
    dedup_ids: count('Event ids kept to de-duplicate retried viewer events, removed with their sessions.'),
    access_log_entries: count('Share access-log lines with the address, removed.'),
    webhook_events: count('Outbox events whose viewer_email and viewer_name (lead.captured: email, name and values) were blanked.'),
    webhook_deliveries: count('Webhook delivery bodies whose address was blanked.'),
    webhook_deliveries_cancelled: count('Of these, deliveries not sent yet, cancelled rather than sent.'),
    webhook_response_excerpts: count('Logged receiver responses that echoed the address, removed.'),
    notification_records: count('Records and queued jobs of e-mail notifications, and Slack alerts (sent or waiting), about this viewer, removed.'),
    crm_sync_items: count('HubSpot sync items (the sync log’s rows, with the address and the notes’ text) about this viewer, removed; HubSpot keeps what it was sent.'),
    leads: count('Leads the viewer sent through lead forms (with the address, or from their sessions), removed.'),
    demos_recomputed: count('Demos whose analytics were rebuilt from their remaining views.'),
    days_recomputed: count('Demo-days rebuilt (views, steps, unique viewers, links, companies).'),
    shares_recounted: count('Share links whose view_count and last_viewed_at were recounted.'),
  })
  .meta({
    id: 'ViewerErasure',
    description: 'What the erasure removed or blanked. Erasing an address nothing is recorded for answers zeros.',
    examples: [
      {
        views: 3,
        step_times: 7,
        viewer_sessions: 2,
        dedup_ids: 9,
        access_log_entries: 4,
        webhook_events: 5,
        webhook_deliveries: 5,
        webhook_deliveries_cancelled: 0,
        webhook_response_excerpts: 0,
        notification_records: 2,
        crm_sync_items: 0,
        leads: 1,
        demos_recomputed: 2,
        days_recomputed: 2,
        shares_recounted: 2,
      },
    ],
  });
