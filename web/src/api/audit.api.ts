import type { z } from 'zod';
import type { auditEntrySchema } from '../../../src/audit/audit.schemas';
import { apiList } from './client';

export { AUDIT_ACTIONS } from '../../../src/audit/audit-actions';
export type AuditEntry = z.output<typeof auditEntrySchema>;

/** The filters of the list and of the CSV export, as query parameters (empty ones left out). */
export interface AuditFilters {
  actor?: string;
  action?: string;
  target?: string;
  start_date?: string;
  end_date?: string;
}

const defined = (filters: AuditFilters) =>
  Object.fromEntries(Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])));

export const auditApi = {
  list: (filters: AuditFilters, page: number, perPage: number) =>
    apiList<AuditEntry>('/audit-log', { query: { ...defined(filters), page, per_page: perPage } }),
  /** A plain link: the browser downloads it with the session cookie (a GET needs no CSRF header). */
  csvUrl: (filters: AuditFilters) => {
    const query = new URLSearchParams(defined(filters)).toString();
    return `/v1/audit-log.csv${query ? `?${query}` : ''}`;
  },
};
