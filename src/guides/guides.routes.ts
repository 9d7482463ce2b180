// The guide export: GET /v1/demos/:id/export/guide (Markdown zip or PDF).
import { bytesResponse, errorEnvelope } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { demoParams, demoRouteErrors } from '../demos/demo-fields.schemas';
import type { ModuleContext, Services } from '../module';
import { guideQuery } from './guides.schemas';
import { GUIDE_MAX_STEPS } from './guides.service';

const tags = ['Demo export'];

export function guidesRoutes(app: ZodApp, ctx: ModuleContext<Services['guides']>) {
  const { guides } = ctx.services;

  // GET /v1/demos/:id/export/guide — the demo as a written guide: Markdown (zip) or PDF
  app.get(
    '/demos/:id/export/guide',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Export a written guide',
        description:
          'The demo’s steps as a how-to article for a help centre. `format=markdown` (default): a zip holding `guide.md` and ' +
          '`images/NN-<title>.png`, each step’s screenshot with its hotspots outlined in the demo’s colour (numbered when a step has ' +
          'several), linked from guide.md by those relative paths. `format=pdf`: the same guide printed by headless Chromium ' +
          '(A4, title page with contents, chapters as headings, each step’s marked screenshot with its text under it, page numbers). ' +
          'Steps: pages are numbered, a first cover is the introduction, chapter menus list their chapters, forms list their ' +
          'fields, end screens give their links; rich text keeps bold, italic, links and lists; variables show their fallback. ' +
          '`version=draft` (default) or `published`. 409 `conflict` when the demo has no steps, or was never published and ' +
          `\`version=published\`. 413 beyond ${GUIDE_MAX_STEPS} steps or when the PDF takes longer than its time budget. ` +
          '422 `validation_error` when a step image cannot be decoded. 503 `unavailable` for `pdf` on a server without Chromium ' +
          '(CHROMIUM_PATH; `details` name `format`), or with Retry-After while other guides are printing. docs/guides.md.',
        params: demoParams,
        querystring: guideQuery,
        response: {
          200: {
            ...bytesResponse('The guide: a zip (format=markdown) or a PDF (format=pdf), as an attachment.', ['application/zip', 'application/pdf']),
            headers: {
              'content-disposition': {
                schema: { type: 'string', example: 'attachment; filename="acme-invoicing-guide.zip"' },
                description: 'attachment, with a file name made from the demo title: `<title>-guide.zip` or `<title>-guide.pdf`.',
              },
              'x-guide-steps': { schema: { type: 'integer', example: 12 }, description: 'The numbered steps the guide holds.' },
            },
          },
          ...demoRouteErrors,
          409: errorEnvelope,
          413: errorEnvelope,
          422: errorEnvelope,
          503: errorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const { format, version } = request.query;
      const file = await guides.export(callerOf(request), request.params.id, format, version);
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('x-guide-steps', String(file.steps))
        .header('cache-control', 'no-store')
        .send(file.bytes);
    },
  );
}
