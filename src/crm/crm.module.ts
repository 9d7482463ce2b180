import { demos } from '../demos/demos.tables';
import { hubSessions, hubs } from '../hubs/hubs.tables';
import { leads } from '../leads/leads.tables';
import { views } from '../viewing/viewing.tables';
import { defineModule } from '../module';
import { registerCrmJobs } from './crm.jobs';
import { crmOutboxConsumer } from './crm.notes';
import { notifySync } from './crm.repo';
import { crmRoutes } from './crm.routes';
import { type CrmService, createCrmService } from './crm.service';

declare module '../module' {
  interface Services {
    crm: { crm: CrmService };
  }
}

/**
 * CRM sync with HubSpot: a workspace's private-app token (sealed, checked on save), identified viewers and
 * leads upserted as contacts by e-mail, views, completions and leads added to their timelines as notes,
 * batched and retried from the outbox, with a sync log, re-sync, and a backfill of the activity from before the
 * connection.
 *
 * @example
 * // app.ts lists it; events reach it through the outbox (kernel.outbox), never through a call:
 * await services.crm.crm.connect(auth, { token: 'pat-na1-...' }, actor);
 */
export const crmModule = defineModule({
  name: 'crm',
  owns: { tables: 'crm.tables.ts', ids: ['crmSync'], permissions: ['crm.manage'] },
  // The history a backfill sends (crm-history.repo.ts): identified views, leads and hub identifications.
  reads: { tables: [demos, views, leads, hubSessions, hubs] },
  create: (kernel) => {
    kernel.outbox.add('crm', crmOutboxConsumer(kernel.config.APP_URL, notifySync));
    return { crm: createCrmService({ ...kernel, appUrl: kernel.config.APP_URL }) };
  },
  routes: crmRoutes,
  jobs: registerCrmJobs,
});
