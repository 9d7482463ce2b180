// The leads API: a viewer's lead form in (POST /v1/viewer/:token/leads), the workspace's leads out (lists and CSV).
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { sendCsv } from '../core/csv';
import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate } from '../core/pagination';
import { demoParams } from '../demos/demo-fields.schemas';
import type { ModuleContext, Services } from '../module';
import { consentPending, SESSION_HEADER, viewerCookieName, visitorOf } from '../viewing/viewer.routes';
import { viewerParams } from '../viewing/viewer.schemas';
import {
  CSV_COLUMNS,
  exportDemoLeadsQuery,
  exportLeadsQuery,
  leadBody,
  leadListEnvelope,
  leadReceiptSchema,
  listDemoLeadsQuery,
  listLeadsQuery,
  toCsvRows,
  toLead,
  toLeadFilters,
} from './leads.schemas';
import { EXPORT_MAX } from './leads.service';

const tags = ['Leads'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };
const viewerErrors = { ...errors, 410: errorEnvelope, 422: errorEnvelope };

const filtersHelp =
  '`share_id` keeps one link’s leads; `start_date` and `end_date` bound `created_at` (a date is its whole UTC day, a timestamp exact); ' +
  'an end before the start is a 400 naming both.';
const csvHelp =
  `RFC 4180 CSV with a header row, newest lead first: ${CSV_COLUMNS.join(', ')}, then one column \`field:<name>\` per form field ` +
  'the exported leads answered (email, name, first_name, last_name, company, phone first, then by name; checkboxes `true`/`false`, unanswered empty). Cells a spreadsheet would run as a formula ' +
  `(starting with = + - @) get a leading apostrophe. At most ${EXPORT_MAX} leads (more is a 400: narrow the dates).`;
const csvResponse = {
  description: 'RFC 4180 CSV with a header row.',
  content: { 'text/csv': { schema: z.string().meta({ example: `${CSV_COLUMNS.join(',')},field:company\r\n` }) } },
};

export function leadsRoutes(app: ZodApp, ctx: ModuleContext<Services['leads']>) {
  const { leads } = ctx.services;
  const secure = ctx.config.APP_URL.startsWith('https:');

  // POST /v1/viewer/:token/leads — a viewer sends a lead form
  app.post(
    '/viewer/:token/leads',
    {
      config: { public: true, viewer: true },
      onRequest: ctx.services.servedHere,
      bodyLimit: 64 * 1024,
      schema: {
        tags: ['Viewer'],
        summary: 'Viewer: send a lead form',
        description:
          'Public, gated like POST /v1/viewer/:token/events and bound to the same viewer session (cookie or `X-Viewer-Session`). ' +
          '`step_number` must be a `form` step of the published demo. 201 with the new lead; 200 with the same answer when this ' +
          'session already sent this `id` (a retry stores nothing), or when another session of the link sends it again with the same ' +
          'step and values (a retry whose first answer was lost: the new session passes the gate as the first did, still one lead and ' +
          'one `lead.captured`); 409 `conflict` on `id` when it comes with other values. 422 `validation_error` names each bad field as `values.<name>` ' +
          '(required, e-mail address, phone number, select option, ticked checkbox, length, unknown field) and stores nothing. ' +
          'A form whose e-mail field is answered with an address the link’s allow-lists accept identifies the viewer (session and view; ' +
          '`viewer.identified`). Every lead emits `lead.captured` and e-mails the members who asked for instant notices. ' +
          'At the identification gate only the link’s gate form (the `form` of the link state) is accepted: its e-mail field is required, ' +
          'an address the allow-lists refuse is a 403 `forbidden` naming `values.<email field>` (nothing stored), and success opens the ' +
          'gate (`gate: ready`, a `session_token` and cookie when no session existed). 401 while the password gate is closed. docs/leads.md.',
        params: viewerParams,
        body: leadBody,
        response: { 200: dataEnvelope(leadReceiptSchema), 201: dataEnvelope(leadReceiptSchema), ...viewerErrors, 409: errorEnvelope },
      },
    },
    async (request, reply) => {
      const { token } = request.params;
      const { receipt, created } = await leads.submit(token, sessionTokenOf(request, token), visitorOf(request), request.body);
      // Before the embedding page's consent (docs/consent.md) the token rides in X-Viewer-Session only.
      if (receipt.session_token && !consentPending(request)) {
        reply.setCookie(viewerCookieName(token), receipt.session_token, {
          httpOnly: true,
          sameSite: 'lax',
          secure,
          path: '/',
          maxAge: Math.floor(ctx.config.VIEWER_SESSION_TTL / 1000),
        });
      }
      reply.header('cache-control', 'no-store');
      reply.code(created ? 201 : 200);
      return ok(request, receipt);
    },
  );

  // GET /v1/leads — a page of the workspace's leads, newest first
  app.get(
    '/leads',
    {
      config: { permission: 'leads.read' },
      schema: {
        tags,
        summary: 'List leads',
        description: `What viewers sent through the lead forms of the workspace’s demos, newest first. \`demo_id\` keeps one demo’s leads; ${filtersHelp}`,
        querystring: listLeadsQuery,
        response: { 200: leadListEnvelope, ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => leads.list(callerOf(request), toLeadFilters(request.query), range),
        ({ rows }) => rows.map(toLead),
      ),
  );

  // GET /v1/leads.csv — the same leads as CSV
  app.get(
    '/leads.csv',
    {
      config: { permission: 'leads.read' },
      schema: {
        tags,
        summary: 'Export leads as CSV',
        description: `The leads the list's filters keep, all of them. ${csvHelp} ${filtersHelp}`,
        querystring: exportLeadsQuery,
        response: { 200: csvResponse, ...errors },
      },
    },
    async (request, reply) => {
      const rows = await leads.exportRows(callerOf(request), toLeadFilters(request.query));
      return sendCsv(reply, 'leads', toCsvRows(rows), ctx.clock.now());
    },
  );

  // GET /v1/demos/:id/leads — a page of one demo's leads
  app.get(
    '/demos/:id/leads',
    {
      config: { permission: 'leads.read' },
      schema: {
        tags,
        summary: 'List a demo’s leads',
        description: `GET /v1/leads for one demo (404 outside the workspace). ${filtersHelp}`,
        params: demoParams,
        querystring: listDemoLeadsQuery,
        response: { 200: leadListEnvelope, ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => leads.list(callerOf(request), { ...toLeadFilters(request.query), demoId: request.params.id }, range, true),
        ({ rows }) => rows.map(toLead),
      ),
  );

  // GET /v1/demos/:id/leads.csv — one demo's leads as CSV
  app.get(
    '/demos/:id/leads.csv',
    {
      config: { permission: 'leads.read' },
      schema: {
        tags,
        summary: 'Export a demo’s leads as CSV',
        description: `GET /v1/leads.csv for one demo (404 outside the workspace). ${csvHelp} ${filtersHelp}`,
        params: demoParams,
        querystring: exportDemoLeadsQuery,
        response: { 200: csvResponse, ...errors },
      },
    },
    async (request, reply) => {
      const filters = { ...toLeadFilters(request.query), demoId: request.params.id };
      const rows = await leads.exportRows(callerOf(request), filters, true);
      return sendCsv(reply, `leads-${request.params.id}`, toCsvRows(rows), ctx.clock.now());
    },
  );

}

/** The viewer session of the request: the link's cookie, else the header (as the other viewer routes read it). */
function sessionTokenOf(request: FastifyRequest, token: string): string | undefined {
  const header = request.headers[SESSION_HEADER];
  return request.cookies[viewerCookieName(token)] ?? (typeof header === 'string' ? header : undefined);
}
