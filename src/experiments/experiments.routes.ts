// The A/B test of a share link: /v1/shares/:id/experiment…
import { actorOf } from '../audit/actor';
import type { ModuleContext, Services } from '../module';
import { dataEnvelope, errorEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { experimentParams, experimentResultsSchema, experimentSchema, startExperimentBody, stopExperimentBody } from './experiments.schemas';

const tags = ['A/B tests'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

export function experimentsRoutes(app: ZodApp, ctx: ModuleContext<Services['experiments']>) {
  const { experiments } = ctx.services;

  // POST /v1/shares/:id/experiment — start an A/B test on a link
  app.post(
    '/shares/:id/experiment',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Start an A/B test',
        description:
          'The link serves two or more arms (demos of this workspace, or published versions of them) by weight; each ' +
          'viewer stays on the arm first shown (see docs/ab-tests.md). 400 `invalid_request` names the arm at fault: ' +
          'not a published demo of this workspace, a version it does not have, two arms alike, a weight that is not a ' +
          'positive integer, fewer than two arms. 409 `conflict` while the link has a running experiment. 404 for a ' +
          'link of another workspace or revoked.',
        params: experimentParams,
        body: startExperimentBody,
        response: { 201: dataEnvelope(experimentSchema), 409: errorEnvelope, ...errors },
      },
    },
    async (request, reply) => {
      const { body } = request;
      const started = await experiments.start(callerOf(request), request.params.id, {
        name: body.name,
        metric: body.metric,
        arms: body.arms.map((a) => ({ demoId: a.demo_id, version: a.version, weight: a.weight, label: a.label })),
      }, actorOf(request));
      reply.code(201);
      return ok(request, started);
    },
  );

  // GET /v1/shares/:id/experiment — the link's A/B test (the running one, or the last stopped)
  app.get(
    '/shares/:id/experiment',
    {
      config: { permission: 'shares.read' },
      schema: {
        tags,
        summary: 'Get the A/B test of a link',
        description:
          "The link's newest experiment, running or stopped (the earlier ones: GET /v1/shares/{id}/experiments). 404 when " +
          "the link has none (or is another workspace's).",
        params: experimentParams,
        response: { 200: dataEnvelope(experimentSchema), ...errors },
      },
    },
    async (request) => ok(request, await experiments.current(callerOf(request), request.params.id)),
  );

  // POST /v1/shares/:id/experiment/stop — stop the A/B test and keep the winner
  app.post(
    '/shares/:id/experiment/stop',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Stop an A/B test, keeping the winner',
        description:
          'From now on every viewer of the link gets `winner_arm_id` (null: the link\'s own demo); the figures per arm stay ' +
          'readable. Left out, the winner is the one the significance test named: 409 `conflict` when it named none yet ' +
          '(too small a sample, or no significant difference), or when the experiment is already stopped. 400 for an ' +
          'arm of another experiment.',
        params: experimentParams,
        body: stopExperimentBody,
        response: { 200: dataEnvelope(experimentSchema), 409: errorEnvelope, ...errors },
      },
    },
    async (request) => ok(request, await experiments.stop(callerOf(request), request.params.id, request.body.winner_arm_id, actorOf(request))),
  );

  // DELETE /v1/shares/:id/experiment — remove the link's A/B test and its figures
  app.delete(
    '/shares/:id/experiment',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Remove the A/B test of a link',
        description:
          "The link's newest experiment, running or stopped: its figures are gone (the views stay, as views of their demos) " +
          "and the link serves what it served before it: the arm its previous experiment kept (that one is the newest " +
          'again), else its own demo.',
        params: experimentParams,
        response: { 204: noContent, ...errors },
      },
    },
    async (request, reply) => {
      await experiments.remove(callerOf(request), request.params.id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // GET /v1/shares/:id/experiment/results — figures per arm and the significance of the difference
  app.get(
    '/shares/:id/experiment/results',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'Results of an A/B test',
        description:
          'Per arm: views, distinct viewers, completions, form conversions and CTA clicks (views that did it, with their ' +
          "rates), the workspace's own traffic left out. `significance` names its method (a two-proportion z-test of " +
          'each arm against the first, Bonferroni-corrected) and gives no winner below the minimum sample (`verdict: too_small`).',
        params: experimentParams,
        response: { 200: dataEnvelope(experimentResultsSchema), ...errors },
      },
    },
    async (request) => ok(request, await experiments.results(callerOf(request), request.params.id)),
  );
}
