// /v1/crm/hubspot: the workspace's HubSpot connection (Settings → HubSpot), its sync log and re-sync.
import { actorOf } from '../audit/actor';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate, paginationQuery } from '../core/pagination';
import type { ModuleContext, Services } from '../module';
import { backfillBody, backfillResultSchema, hubSpotStatusSchema, putHubSpotBody, resyncBody, resyncResultSchema, syncItemSchema, syncLogQuery, toSyncItem } from './crm.schemas';

const tags = ['Workspace (web app)'];
const config = { permission: 'crm.manage' } as const;
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope };

/**
 * The HubSpot connection: read, saved (token checked with HubSpot), removed, its sync log and re-sync.
 *
 * @example
 * crmRoutes(app, { ...kernel, services: services.crm }); // as crmModule.routes does
 */
export function crmRoutes(app: ZodApp, ctx: ModuleContext<Services['crm']>) {
  const { crm } = ctx.services;

  // GET /v1/crm/hubspot — the connection's status and the sync log's counts
  app.get(
    '/crm/hubspot',
    {
      config,
      schema: {
        tags,
        summary: 'HubSpot connection',
        description:
          'Whether a HubSpot private-app token is saved, whether the sync runs or is paused (and why), and how many items ' +
          'of the sync log are in each state. The token is never returned.',
        response: { 200: dataEnvelope(hubSpotStatusSchema), ...errors },
      },
    },
    async (request) => ok(request, await crm.status(callerOf(request).workspaceId)),
  );

  // PUT /v1/crm/hubspot — connect HubSpot, or replace the token
  app.put(
    '/crm/hubspot',
    {
      config,
      schema: {
        tags,
        summary: 'Connect HubSpot',
        description:
          'Checks the token with HubSpot (`GET /crm/v3/objects/contacts?limit=1`), then saves it encrypted. From then on ' +
          'each identified viewer and each lead becomes or updates a HubSpot contact by e-mail, and views, completions and ' +
          'leads are added to its timeline as notes (docs/crm.md). Replacing the token keeps the sync log and resumes a ' +
          'paused sync; events from before the first connection are not synced. 400 when HubSpot refuses the token (401, ' +
          'or 403 for a missing scope), with its message; 503 when HubSpot cannot be reached or rate-limits the check ' +
          '(nothing saved). Recorded in the audit log (`workspace.changed`, without the token).',
        body: putHubSpotBody,
        response: { 200: dataEnvelope(hubSpotStatusSchema), ...errors, 503: errorEnvelope },
      },
    },
    async (request) => ok(request, await crm.connect(callerOf(request), request.body, actorOf(request))),
  );

  // DELETE /v1/crm/hubspot — disconnect HubSpot
  app.delete(
    '/crm/hubspot',
    {
      config,
      schema: {
        tags,
        summary: 'Disconnect HubSpot',
        description:
          'Deletes the token, the items waiting to be synced and the sync log; what HubSpot has stays there. 204 also ' +
          'when nothing was connected. Recorded in the audit log (`workspace.changed`).',
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await crm.disconnect(callerOf(request), actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // GET /v1/crm/hubspot/log — the sync log, newest first
  app.get(
    '/crm/hubspot/log',
    {
      config,
      schema: {
        tags,
        summary: 'HubSpot sync log',
        description:
          'One item per synced event, newest first: the contact (by e-mail) and whether it was created or updated, the ' +
          'note added to its timeline, the attempts, and what HubSpot answered when it failed.',
        querystring: paginationQuery.extend(syncLogQuery.shape),
        response: { 200: listEnvelope(syncItemSchema), ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => crm.log(callerOf(request), { status: request.query.status, email: request.query.email }, range),
        ({ rows }) => rows.map(toSyncItem),
      ),
  );

  // POST /v1/crm/hubspot/resync — queue finished items again
  app.post(
    '/crm/hubspot/resync',
    {
      config,
      schema: {
        tags,
        summary: 'Re-sync with HubSpot',
        description:
          'Queues the finished items (succeeded or failed) of one contact, of everything since a date, or of the whole ' +
          'log, for the sync to send again: each contact is upserted again, and a note is created only where none was ' +
          'recorded, so a re-sync never duplicates a note. Items waiting or in flight are left as they are. 409 when ' +
          'HubSpot is not connected.',
        body: resyncBody,
        response: { 200: dataEnvelope(resyncResultSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) => ok(request, await crm.resync(callerOf(request), request.body ?? {})),
  );

  // POST /v1/crm/hubspot/backfill — send what happened before the connection
  app.post(
    '/crm/hubspot/backfill',
    {
      config,
      schema: {
        tags,
        summary: 'Send earlier activity to HubSpot',
        description:
          'Events are synced from the connection on. This sends what came before it: for every address identified ' +
          'before the connection (views of identified viewers, members’ own left out; leads; hub identifications), ' +
          'since `since` when given, one item that upserts the contact (the newest name, a hub’s company, job title ' +
          'and phone) and adds one note listing that activity (demos viewed and how often, finished or not; forms ' +
          'sent with their answers; hubs). An address a backfill already sent is not queued again, so it is safe to ' +
          'repeat. The items appear in the sync log as `history`. 400 when there are more than 100,000 rows of ' +
          'history to read (`details` names `since`: choose a later date); 409 when HubSpot is not connected.',
        body: backfillBody,
        response: { 200: dataEnvelope(backfillResultSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) => ok(request, await crm.backfill(callerOf(request), request.body ?? {})),
  );
}
