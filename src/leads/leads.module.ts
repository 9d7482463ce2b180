// The leads domain as the app sees it: one module object, one line in app.ts.
import { demos } from '../demos/demos.tables';
import { defineModule } from '../module';
import { shares } from '../shares/shares.tables';
import { leadsRoutes } from './leads.routes';
import { createLeadsService, type LeadsService } from './leads.service';
import { servedHere } from '../viewing/viewer.routes';

declare module '../module' {
  interface Services {
    leads: {
      leads: LeadsService;
      /** On a custom domain, a link of another workspace is a 404 (viewing's check, for the lead route). */
      servedHere: ReturnType<typeof servedHere>;
    };
  }
}

/**
 * Lead forms' submissions: a viewer's form in (through the viewing module's gates and sessions; a gate form
 * identifies them as the identification gate does), the workspace's leads out (lists, CSV), `lead.captured`
 * and the members' e-mail (notifications) in the submission's transaction. docs/leads.md.
 *
 * @example
 * // app.ts: after viewing and notifications, whose services it uses.
 * const MODULES = [..., notificationsModule, viewingModule, leadsModule, ...];
 */
export const leadsModule = defineModule({
  name: 'leads',
  owns: { tables: 'leads.tables.ts', ids: ['lead'], events: ['lead.captured'], permissions: ['leads.read'] },
  reads: { tables: [demos, shares] },
  needs: ['viewing', 'notifications', 'demos'],
  create(kernel, deps) {
    return {
      leads: createLeadsService({
        db: kernel.database.db,
        reads: kernel.reads,
        clock: kernel.clock,
        changes: kernel.changes,
        viewer: deps.viewing.viewer,
        notifications: deps.notifications.notifications,
        demos: deps.demos.reader,
      }),
      servedHere: servedHere(deps.viewing.viewer),
    };
  },
  routes: leadsRoutes,
});
