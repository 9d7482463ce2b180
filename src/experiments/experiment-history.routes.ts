// A link's A/B tests one after another: /v1/shares/:id/experiments, one of them, its results, and deleting an earlier one.
import { actorOf } from '../audit/actor';
import { dataEnvelope, errorEnvelope, listEnvelope, noContent, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate } from '../core/pagination';
import type { ModuleContext, Services } from '../module';
import { experimentByIdParams, experimentParams, experimentResultsSchema, experimentSchema, listExperimentsQuery } from './experiments.schemas';

const tags = ['A/B tests'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };
const notFound =
  "404 for a link of another workspace or revoked, and for an experiment id that is not one of this link's (another " +
  "link's, another workspace's, removed).";

export function experimentHistoryRoutes(app: ZodApp, ctx: ModuleContext<Services['experiments']>) {
  const { experiments } = ctx.services;

  // GET /v1/shares/:id/experiments — every A/B test the link has had, newest first
  app.get(
    '/shares/:id/experiments',
    {
      config: { permission: 'shares.read' },
      schema: {
        tags,
        summary: 'List the A/B tests of a link',
        description:
          "The link's experiments, newest first (the first is the one GET /v1/shares/{id}/experiment answers), each " +
          'as that route answers it: the running one and the stopped ones with the arm each kept. An empty list when ' +
          "the link never had one. 400 for `page` or `per_page` out of range. 404 for a link of another workspace or revoked.",
        params: experimentParams,
        querystring: listExperimentsQuery,
        response: { 200: listEnvelope(experimentSchema), ...errors },
      },
    },
    async (request) => paginate(request, (range) => experiments.list(callerOf(request), request.params.id, range), ({ rows }) => rows),
  );

  // GET /v1/shares/:id/experiments/:experiment_id — one A/B test of the link, the newest or an earlier one
  app.get(
    '/shares/:id/experiments/:experiment_id',
    {
      config: { permission: 'shares.read' },
      schema: {
        tags,
        summary: 'Get an A/B test of a link by id',
        description: `One of the link's experiments, running or stopped, as GET /v1/shares/{id}/experiment answers the newest. ${notFound}`,
        params: experimentByIdParams,
        response: { 200: dataEnvelope(experimentSchema), ...errors },
      },
    },
    async (request) => ok(request, await experiments.get(callerOf(request), request.params.id, request.params.experiment_id)),
  );

  // DELETE /v1/shares/:id/experiments/:experiment_id — delete an earlier A/B test of the link
  app.delete(
    '/shares/:id/experiments/:experiment_id',
    {
      config: { permission: 'shares.write' },
      schema: {
        tags,
        summary: 'Delete an earlier A/B test of a link',
        description:
          "One of the link's earlier experiments (not the newest) is gone, with its arms and its figures; the views " +
          'stay, as views of their demos. The link serves what it served before (its newest experiment is untouched). ' +
          "409 `conflict` for the link's newest experiment: remove that one with DELETE /v1/shares/{id}/experiment, " +
          `which also changes what the link serves. ${notFound}`,
        params: experimentByIdParams,
        response: { 204: noContent, 409: errorEnvelope, ...errors },
      },
    },
    async (request, reply) => {
      await experiments.removeEarlier(callerOf(request), request.params.id, request.params.experiment_id, actorOf(request));
      return reply.code(204).send(null);
    },
  );

  // GET /v1/shares/:id/experiments/:experiment_id/results — the figures of one A/B test, an earlier one too
  app.get(
    '/shares/:id/experiments/:experiment_id/results',
    {
      config: { permission: 'analytics.read' },
      schema: {
        tags,
        summary: 'Results of an A/B test by id',
        description:
          'The same figures and significance as GET /v1/shares/{id}/experiment/results, for any of the link’s experiments. ' +
          'An earlier experiment’s figures stop growing when the next one starts: its arms are no longer served. ' +
          notFound,
        params: experimentByIdParams,
        response: { 200: dataEnvelope(experimentResultsSchema), ...errors },
      },
    },
    async (request) => ok(request, await experiments.results(callerOf(request), request.params.id, request.params.experiment_id)),
  );
}
