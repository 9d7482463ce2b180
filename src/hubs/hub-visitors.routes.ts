// /v1/hubs/:id/visitors: who passed a hub's identification or lead form, as a list and as CSV.
import { z } from 'zod';
import { sendCsv } from '../core/csv';
import { errorEnvelope } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate } from '../core/pagination';
import type { ModuleContext, Services } from '../module';
import {
  exportHubVisitorsQuery,
  hubVisitorListEnvelope,
  listHubVisitorsQuery,
  toHubVisitor,
  toVisitorCsvRows,
  toVisitorFilter,
  VISITOR_CSV_COLUMNS,
} from './hub-visitors.schemas';
import { VISITORS_EXPORT_MAX } from './hub-visitors.service';
import { hubParams } from './hubs.schemas';

const tags = ['Hubs'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

const about =
  'One visitor per identification: a visit (hub session) in which someone passed the hub’s identification or lead form, ' +
  'newest first; someone who comes back in another browser session and identifies again is listed again. Visits by members ' +
  'of the workspace signed in to the web app are left out. `start_date` and `end_date` bound `identified_at` (a date is its ' +
  'whole UTC day, a timestamp exact); an end before the start is a 400 naming both. 404 for a hub not in the workspace.';
const csvHelp =
  `RFC 4180 CSV with a header row: ${VISITOR_CSV_COLUMNS.join(', ')} (a lead-form field the hub did not ask: empty; ` +
  'several demos in one cell, separated by `; `). Cells a spreadsheet would run as a formula (starting with = + - @) get a ' +
  `leading apostrophe. At most ${VISITORS_EXPORT_MAX} visitors (more is a 400: narrow the dates).`;

export function hubVisitorsRoutes(app: ZodApp, ctx: ModuleContext<Services['hubs']>) {
  const { visitors } = ctx.services;

  // GET /v1/hubs/:id/visitors — a page of a hub's identified visitors
  app.get(
    '/hubs/:id/visitors',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'List a demo hub’s visitors',
        description: `Who passed the hub’s gate form: their e-mail, name, lead-form answers and the demos they opened. ${about}`,
        params: hubParams,
        querystring: listHubVisitorsQuery,
        response: { 200: hubVisitorListEnvelope, ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => visitors.list(callerOf(request), request.params.id, toVisitorFilter(request.query), range),
        ({ rows }) => rows.map(toHubVisitor),
      ),
  );

  // GET /v1/hubs/:id/visitors/export — the same visitors as CSV
  app.get(
    '/hubs/:id/visitors/export',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'Export a demo hub’s visitors as CSV',
        description: `Every visitor the list’s filters keep. ${csvHelp} ${about}`,
        params: hubParams,
        querystring: exportHubVisitorsQuery,
        response: {
          200: {
            description: 'RFC 4180 CSV with a header row.',
            content: {
              'text/csv': {
                schema: z.string().meta({
                  example: `${VISITOR_CSV_COLUMNS.join(',')}\r\n2026-11-28T15:42:10.000Z,jane@acme.com,Jane Doe,Acme,Head of Sales,,3,demo_01jd3k7q9x8v2m4n6p0r5s7t9w,Create your first invoice\r\n`,
                }),
              },
            },
          },
          ...errors,
        },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const rows = await visitors.exportRows(callerOf(request), id, toVisitorFilter(request.query));
      return sendCsv(reply, `hub-visitors-${id}`, toVisitorCsvRows(rows), ctx.clock.now());
    },
  );
}
