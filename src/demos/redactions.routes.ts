import { actorOf } from '../audit/actor';
import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';
import { stepParams } from './demo-fields.schemas';
import { demoUrlsOf } from './demos.schemas';
import { MAX_REDACTION_REGIONS, MAX_REDACTION_SELECTOR_LENGTH, MAX_REDACTION_SELECTORS, redactionsBody } from './redactions.schemas';
import { stepSchema, toStep } from './steps.schemas';

const errors = {
  400: errorEnvelope.meta({
    description:
      'Invalid body (a region outside the image, an invalid selector, neither regions nor selectors); regions ' +
      'for a step without an image, selectors for a step without an HTML snapshot, or a selector that matches ' +
      'no element of it (`details` names it). Nothing is changed.',
  }),
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope.meta({ description: 'No such demo in the workspace, or no such step in the demo.' }),
  409: errorEnvelope.meta({
    description:
      'The demo is being generated, the step’s image cannot be decoded, the step’s snapshot nests elements ' +
      'more than 512 levels deep (stored before that limit), or the step’s image or snapshot was replaced ' +
      'while the request was being worked on.',
  }),
  413: errorEnvelope.meta({
    description: 'Blurring the step’s snapshot took longer than the server allows (DOCUMENT_TASK_TIMEOUT): nothing is changed.',
  }),
  429: errorEnvelope,
};

export function redactionsRoutes(app: ZodApp, ctx: ModuleContext<Services['demos']>) {
  const { redactions, steps } = ctx.services;
  const urls = demoUrlsOf(ctx.config);

  // POST /v1/demos/:id/steps/:step_id/redactions — blur parts of a step's image and snapshot for good
  app.post(
    '/demos/:id/steps/:step_id/redactions',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags: ['Demo editor'],
        summary: 'Blur parts of a step',
        description:
          'Changes what is stored, not only what is shown. `regions` (fractions of the step image, at most ' +
          `${MAX_REDACTION_REGIONS}) are pixelated and blurred (\`style\` \`blur\`) or filled (\`solid\`) in a new image. ` +
          `Elements of the HTML snapshot matched by \`selectors\` (at most ${MAX_REDACTION_SELECTORS}, each at most ` +
          `${MAX_REDACTION_SELECTOR_LENGTH} characters), with everything inside them, get their text replaced by ` +
          'bullets of the same length, lose their form values, placeholders, links, titles, images and background ' +
          'images, and render blurred, in a new snapshot. The step, the demo’s thumbnail and every published ' +
          'version that named the old image or snapshot are pointed at the new ones, and the old ones are deleted: ' +
          'their URLs answer 404. One transaction; cannot be undone. Selectors change only the snapshot: send the ' +
          'element’s box as a region too where the step also has an image. Answers the step.',
        params: stepParams,
        body: redactionsBody,
        response: { 200: dataEnvelope(stepSchema), ...errors },
      },
    },
    async (request) => {
      const { id, step_id } = request.params;
      const step = await redactions.redact(callerOf(request), id, step_id, request.body, actorOf(request));
      return ok(request, toStep(step, urls, await steps.stepNumbers(callerOf(request), id)));
    },
  );
}
