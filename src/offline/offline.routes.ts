// The offline bundle's routes: the file itself, and the events its optional beacon sends back.
import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { AppError, invalid } from '../core/errors';
import { callerOf, type ZodApp } from '../core/http/types';
import { demoParams } from '../demos/demo-fields.schemas';
import type { ModuleContext, Services } from '../module';
import { eventsBody } from '../viewing/view-events.schemas';
import { servedHere, visitorOf } from '../viewing/viewer.routes';
import { viewerParams } from '../viewing/viewer.schemas';
import { offlineEventsAnswer, offlineEventsBody, offlineFileResponse, offlineQuery } from './offline.schemas';

const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 409: errorEnvelope, 413: errorEnvelope, 429: errorEnvelope };

export function offlineRoutes(app: ZodApp, ctx: ModuleContext<Services['offline']>) {
  const { offline, beaconLinks } = ctx.services;
  const { viewer, ingestion } = ctx.services.viewing;

  // A text/plain body is what a page on file:// can post without a CORS preflight. Whichever module registers
  // a text/plain parser first (translations take PO files as text/plain), this route reads its body as JSON
  // before the schema checks it.
  if (!app.hasContentTypeParser('text/plain')) {
    app.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  }
  const jsonBody = (request: { body: unknown }, _reply: unknown, done: (err?: Error) => void) => {
    const raw = request.body;
    if (!Buffer.isBuffer(raw) && typeof raw !== 'string') return done();
    try {
      request.body = JSON.parse(raw.toString());
      done();
    } catch {
      done(new AppError('invalid_request', 'The body is not JSON', { details: [{ field: 'body', message: 'must be a JSON object sent as text/plain' }] }));
    }
  };

  // GET /v1/demos/:id/export/offline — the published version as one self-contained HTML file
  app.get(
    '/demos/:id/export/offline',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags: ['Demos'],
        summary: 'Export a demo as an offline HTML file',
        description:
          'One self-contained HTML file that plays the demo’s published version (the newest, even if the demo was unpublished since) ' +
          'from file:// or any static host, with no server: the player, the demo, its screenshots and HTML snapshots (made offline: ' +
          'the captured site’s pictures fetched and written in, scripts and other references removed) and the workspace’s brand inline. Lead forms are shown but send nothing. ' +
          'HEAD gives the size (`Content-Length`, `X-Bundle-Size`) without the body. 409 `conflict` when the demo was never published; ' +
          '409 with beacon=true or ask when no link can carry the beacon (`details` name `share_id`); 413 `payload_too_large` past 100 MB; ' +
          '503 when the player is not built on the server. docs/offline.md.',
        params: demoParams,
        querystring: offlineQuery,
        response: { 200: offlineFileResponse, ...errors },
      },
    },
    async (request, reply) => {
      const auth = callerOf(request);
      const { id } = request.params;
      const mode = request.query.beacon;
      const beacon = mode ? { token: await beaconLinks(auth, id, request.query.share_id), ask: mode === 'ask' } : null;
      if (!request.query.beacon && request.query.share_id) throw invalid('share_id goes with beacon=true', [{ field: 'share_id', message: 'only with beacon=true' }]);
      const built = await offline.build(auth, id, { beacon });
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-disposition', `attachment; filename="${built.filename}"`)
        .header('x-bundle-size', String(built.bytes.length))
        .header('x-demo-version', String(built.version))
        .header('cache-control', 'private, no-store')
        .send(built.bytes);
    },
  );

  // POST /v1/viewer/:token/offline-events — an offline file's beacon: its viewing events, counted on the link
  app.post(
    '/viewer/:token/offline-events',
    {
      config: { public: true, viewer: true, accepts: ['text/plain'] },
      onRequest: servedHere(viewer),
      bodyLimit: 64 * 1024,
      preValidation: jsonBody,
      schema: {
        tags: ['Viewer'],
        summary: 'Viewer: record an offline file’s events',
        description:
          'What an offline file made with beacon=true posts when it is online: the body of POST /v1/viewer/:token/events plus the ' +
          '`session_token` this route answered before, sent as text/plain (a simple cross-origin request: no preflight from file:// ' +
          'or a static host) and answered with `Access-Control-Allow-Origin: *` (no cookie is read or set). The first batch opens a ' +
          'session on the link as GET /v1/viewer/:token does; only links without a password or identification take it (403 `forbidden` ' +
          'naming the gate). Events are checked and counted exactly as on /events. docs/offline.md.',
        params: viewerParams,
        consumes: ['text/plain', 'application/json'],
        body: offlineEventsBody,
        response: { 202: dataEnvelope(offlineEventsAnswer), ...errors, 410: errorEnvelope },
      },
    },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      const { token } = request.params;
      const parsed = eventsBody.safeParse({ events: request.body.events });
      if (!parsed.success) {
        const details = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
        throw invalid(`Invalid body: ${details[0]?.field} ${details[0]?.message}`, details);
      }
      const visitor = visitorOf(request);
      const open = async () => {
        const state = await viewer.state(token, undefined, visitor);
        if (state.gate !== 'ready') {
          throw new AppError('forbidden', 'This link asks for a password or identification: an offline file cannot pass it', {
            details: [{ field: 'gate', message: state.gate }],
          });
        }
        return state.issued as string;
      };
      let session = request.body.session_token ?? (await open());
      let result: Awaited<ReturnType<typeof ingestion.record>>;
      try {
        result = await ingestion.record(token, session, visitor, parsed.data);
      } catch (error) {
        // The session ended (expired, the link's password changed): one new session, once.
        if (!(error instanceof AppError) || error.status !== 401 || !request.body.session_token) throw error;
        session = await open();
        result = await ingestion.record(token, session, visitor, parsed.data);
      }
      reply.code(202);
      return ok(request, { session_token: session, accepted: result.accepted, duplicates: result.duplicates });
    },
  );
}
