import { defineModule } from '../module';
import { registerAuditJobs } from './audit.jobs';
import { auditRoutes } from './audit.routes';
import { type AuditService, createAuditService } from './audit.service';

declare module '../module' {
  interface Services {
    audit: { audit: AuditService };
  }
}

/**
 * The audit log: the append-only record of security-relevant actions, its API and CSV export, and its
 * retention. Other domains write to it with `recordAudit` (audit-recorder.ts) in their own transactions.
 *
 * @example
 * ```ts
 * // app.ts lists it once; a domain records its change in the change's own transaction:
 * await deps.database.db.transaction(async (tx) => {
 *   await repo.deleteDemo(tx, demo.id);
 *   await recordAudit(tx, clock, actor, {
 *     workspaceId: auth.workspaceId,
 *     action: 'demo.deleted',
 *     target: { type: 'demo', id: demo.id, label: demo.title },
 *   });
 * });
 * ```
 */
export const auditModule = defineModule({
  name: 'audit',
  owns: { tables: 'audit.tables.ts', ids: ['auditEntry'], events: ['audit.entry'], permissions: ['audit.read'] },
  create: (kernel) => ({
    audit: createAuditService({ ...kernel, retentionMs: kernel.config.AUDIT_LOG_RETENTION }),
  }),
  routes: auditRoutes,
  jobs: registerAuditJobs,
});
