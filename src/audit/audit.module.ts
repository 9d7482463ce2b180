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
