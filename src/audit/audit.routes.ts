import { Readable } from 'node:stream';
import { z } from 'zod';
import { csvLine } from '../core/csv';
import { errorEnvelope, page } from '../core/envelope';
import { AppError } from '../core/errors';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginateByKeyset } from '../core/pagination';
import type { ModuleContext, Services } from '../module';
import type { AuditRow } from './audit.repo';
import { auditListEnvelope, CSV_HEADER, exportAuditQuery, listAuditQuery, toAuditEntry, toAuditFilters, toCsvCells } from './audit.schemas';

const tags = ['Audit log'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope };
const filtersHelp =
  'Filters combine: `actor` (a user, key or app id), `action`, `target` (the id of the record acted on), ' +
  '`start_date` and `end_date` (inclusive UTC days, or ISO timestamps).';

export function auditRoutes(app: ZodApp, ctx: ModuleContext<Services['audit']>) {
  const { audit } = ctx.services;

  // GET /v1/audit-log — a page of the workspace's audit log, newest first; with `after`, the feed a SIEM polls
  app.get(
    '/audit-log',
    {
      config: { permission: 'audit.read' },
      schema: {
        tags,
        summary: 'List audit log entries',
        description:
          'Security-relevant actions in the workspace, newest first. Entries are never changed or deleted, except by the retention (AUDIT_LOG_RETENTION). ' +
          `${filtersHelp} With \`after\` (an entry id, or \`start\`) the answer is the feed a SIEM polls instead: the entries after it, oldest first, ` +
          'and `meta.next` to send as `after` next time; `total` counts the entries after it that are ready, this page included. ' +
          'An entry is ready once every transaction that began before it has ended, so each one arrives exactly once, in the order of the feed. ' +
          'Without `after`, page by `page` or, deep into the log, by `cursor` (`meta.next_cursor`; null in feed mode).',
        querystring: listAuditQuery,
        response: { 200: auditListEnvelope, ...errors },
      },
    },
    async (request) => {
      const filters = toAuditFilters(request.query);
      const { after, per_page: perPage } = request.query;
      if (after !== undefined) {
        if (request.query.cursor !== undefined) {
          throw new AppError('invalid_request', 'cursor does not combine with after: the feed goes on with meta.next', {
            details: [{ field: 'cursor', message: 'leave it out when after is given' }],
          });
        }
        if (request.query.page !== 1) {
          throw new AppError('invalid_request', 'page does not combine with after: the feed goes on with meta.next', {
            details: [{ field: 'page', message: 'leave it out when after is given' }],
          });
        }
        const fed = await audit.feed(callerOf(request), filters, after, perPage);
        const answer = page(request, fed.rows.map(toAuditEntry), { total: fed.total, page: 1, perPage });
        return { ...answer, meta: { ...answer.meta, next_cursor: null, next: fed.next } };
      }
      return paginateByKeyset(
        request,
        (window) => audit.list(callerOf(request), filters, window),
        (row) => ({ at: row.createdAt, id: row.id }),
        ({ rows }) => rows.map(toAuditEntry),
      );
    },
  );

  // GET /v1/audit-log.csv — every matching entry as CSV, for spreadsheets and archives
  app.get(
    '/audit-log.csv',
    {
      config: { permission: 'audit.read' },
      schema: {
        tags,
        summary: 'Export the audit log as CSV',
        description:
          `The same entries as the list, all of them, newest first, streamed as RFC 4180 CSV with a header row (columns: ${CSV_HEADER.join(', ')}). ` +
          'Cells that a spreadsheet would run as a formula (starting with = + - @) are prefixed with an apostrophe. ' +
          filtersHelp,
        querystring: exportAuditQuery,
        response: {
          // Fastify pipes the stream as is; this schema only documents it. Errors stay JSON.
          200: {
            description: 'RFC 4180 CSV with a header row, newest entry first.',
            content: { 'text/csv': { schema: z.string().meta({ example: `${CSV_HEADER.join(',')}\r\n` }) } },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const filters = toAuditFilters(request.query);
      const entries = audit.exportEntries(callerOf(request), filters);
      // The first batch is read before the headers go: a failure there is still a proper error response.
      const first = await entries.next();
      async function* lines(): AsyncGenerator<string> {
        yield csvLine(CSV_HEADER);
        if (first.done) return;
        yield csvLine(toCsvCells(first.value));
        for await (const row of entries as AsyncIterable<AuditRow>) yield csvLine(toCsvCells(row));
      }
      const day = ctx.clock.now().toISOString().slice(0, 10);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log-${day}.csv"`)
        .header('cache-control', 'no-store')
        // The documented body is the CSV text; Fastify pipes a stream of it unserialised.
        .send(Readable.from(lines()) as unknown as string);
    },
  );
}
