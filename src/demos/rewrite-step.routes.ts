// POST /v1/demos/:id/steps/:step_id/rewrite: the editor's Rewrite button.
import { dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import type { ModuleContext, Services } from '../module';
import { demoRouteErrors, stepParams } from './demo-fields.schemas';
import { rewriteStepBody, stepSuggestionSchema } from './rewrite-step.schemas';

/**
 * The step's Rewrite: a suggestion from the workspace's model, not saved.
 *
 * @example
 * rewriteStepRoutes(app, ctx); // as demosModule.routes does, after the steps' routes
 */
export function rewriteStepRoutes(app: ZodApp, ctx: ModuleContext<Services['demos']>) {
  const { rewrites } = ctx.services;

  // POST /v1/demos/:id/steps/:step_id/rewrite — a better title and text, suggested by the model
  app.post(
    '/demos/:id/steps/:step_id/rewrite',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags: ['Demo editor'],
        summary: 'Suggest a rewrite of a step',
        description:
          'Asks the workspace’s AI model (Settings → AI, else the instance’s AI_* model) for a better title and text ' +
          'for this step, from the step’s page, its highlighted element, its current words and its neighbours. Saves ' +
          'nothing: apply the suggestion with `PATCH /v1/demos/{id}/steps/{step_id}`. 409 when no model is set up ' +
          '(the message says where to set one up); 503 when the model fails (the reason in words: a refused key, no ' +
          'answer in time...).',
        params: stepParams,
        body: rewriteStepBody,
        response: { 200: dataEnvelope(stepSuggestionSchema), ...demoRouteErrors, 409: errorEnvelope, 503: errorEnvelope },
      },
    },
    async (request) => {
      const suggestion = await rewrites.suggest(callerOf(request), request.params.id, request.params.step_id, request.body?.instruction || undefined);
      return ok(request, suggestion);
    },
  );
}
