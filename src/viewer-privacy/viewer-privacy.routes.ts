import { actorOf } from '../audit/actor';
import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';
import { erasureBody, erasureSchema } from './viewer-privacy.schemas';

const tags = ['Viewer privacy'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 429: errorEnvelope };

export function viewerPrivacyRoutes(app: ZodApp, ctx: ModuleContext<Services['viewerPrivacy']>) {
  const { viewerPrivacy } = ctx.services;

  // POST /v1/viewer-erasures — erase everything recorded about one viewer e-mail in the caller's workspace
  app.post(
    '/viewer-erasures',
    {
      config: { permission: 'viewers.erase' },
      schema: {
        tags,
        summary: 'Erase a viewer’s data',
        description:
          'Removes, in one transaction and within the caller’s workspace only, the views of the address (and of ' +
          'its viewer sessions, begun before it identified), their step times, the viewer sessions and the event ' +
          'ids kept to de-duplicate them, and the share access-log lines with the address; blanks `viewer_email` ' +
          'and `viewer_name` in webhook events and delivery bodies (a delivery not sent yet is cancelled); and ' +
          'rebuilds the analytics of the demo-days concerned from the views that remain, with the links’ ' +
          '`view_count` and `last_viewed_at`. Idempotent: erasing an address again, or one never seen, answers ' +
          'zeros. Recorded in the audit log (`data.erased`) with the counts, without the address. What it cannot ' +
          'reach (backups, receivers’ copies, exports): docs/sharing.md, Viewer privacy.',
        body: erasureBody,
        response: { 200: dataEnvelope(erasureSchema), ...errors },
      },
    },
    async (request) => ok(request, await viewerPrivacy.erase(callerOf(request), request.body.email, actorOf(request))),
  );
}
