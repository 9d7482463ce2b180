// The stale-demo check API: start a check, read checks, replace a step with a check's new capture, the check schedule.
import { bytesResponse, dataEnvelope, errorEnvelope, ok } from '../core/envelope';
import { callerOf, type ZodApp } from '../core/http/types';
import { paginate } from '../core/pagination';
import { demoParams } from '../demos/demo-fields.schemas';
import type { ModuleContext, Services } from '../module';
import {
  checkListEnvelope,
  checkParams,
  checkSchema,
  checkStepParams,
  listChecksQuery,
  replaceResultSchema,
  scheduleBody,
  scheduleSchema,
  startCheckBody,
  toCheck,
  toCheckSummary,
  toSchedule,
} from './staleness.schemas';

const tags = ['Stale-demo checks'];
const errors = { 400: errorEnvelope, 401: errorEnvelope, 403: errorEnvelope, 404: errorEnvelope, 429: errorEnvelope };

export function stalenessRoutes(app: ZodApp, ctx: ModuleContext<Services['staleness']>) {
  const { staleness } = ctx.services;

  // POST /v1/demos/:id/checks — capture the demo's pages again and compare each step
  app.post(
    '/demos/:id/checks',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Check a demo against its pages',
        description:
          'Queues a check of the draft: each step with a page address is compared with its page captured again now (the hotspot’s target ' +
          'still found, its text, its box, its picture). Answers 202 with the check, `queued`; poll GET …/checks/:check_id until it has ' +
          '`succeeded` (then `drift` says whether any step is not `ok`) or `failed`. While a check of this demo is queued or running, ' +
          'answers that check instead of starting another. The body is optional. docs/stale-check.md.',
        params: demoParams,
        body: startCheckBody,
        response: { 202: dataEnvelope(checkSchema), ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body ?? {};
      const { check } = await staleness.start(callerOf(request), request.params.id, {
        imageThreshold: body.image_threshold,
        boxThresholdPx: body.box_threshold_px,
      });
      reply.code(202);
      return ok(request, toCheck(check));
    },
  );

  // GET /v1/demos/:id/checks — the demo's checks, newest first
  app.get(
    '/demos/:id/checks',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'List a demo’s checks',
        description: 'Newest first, without the per-step results (GET …/checks/:check_id has them).',
        params: demoParams,
        querystring: listChecksQuery,
        response: { 200: checkListEnvelope, ...errors },
      },
    },
    async (request) =>
      paginate(
        request,
        (range) => staleness.list(callerOf(request), request.params.id, range),
        (loaded) => loaded.rows.map(toCheckSummary),
      ),
  );

  // GET /v1/demos/:id/checks/:check_id — one check with its per-step results
  app.get(
    '/demos/:id/checks/:check_id',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Get a check',
        description: 'The check and, once it has succeeded, one result per step with a page address, in step order.',
        params: checkParams,
        response: { 200: dataEnvelope(checkSchema), ...errors },
      },
    },
    async (request) => ok(request, toCheck(await staleness.get(callerOf(request), request.params.id, request.params.check_id))),
  );

  // POST /v1/demos/:id/checks/:check_id/steps/:step_id/replace — the step takes the check's new capture
  app.post(
    '/demos/:id/checks/:check_id/steps/:step_id/replace',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Replace a step with the new capture',
        description:
          'The step’s image (and snapshot, for a step that has one) become the check’s new capture of its page, and its hotspots move to ' +
          'where their targets are now; its title, description, patches, hotspot labels and actions stay. Later checks compare the step ' +
          'with this capture. Only the newest check of a demo keeps captures, and only of steps that were not `ok` (`replaceable`): ' +
          '409 otherwise, and 409 for a step already replaced from this check or while the demo is being generated.',
        params: checkStepParams,
        response: { 200: dataEnvelope(replaceResultSchema), ...errors, 409: errorEnvelope },
      },
    },
    async (request) =>
      ok(request, await staleness.replace(callerOf(request), request.params.id, request.params.check_id, request.params.step_id)),
  );

  // GET /v1/demos/:id/checks/:check_id/steps/:step_id/capture — the new screenshot "replace" would use
  app.get(
    '/demos/:id/checks/:check_id/steps/:step_id/capture',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Get a step’s new capture',
        description:
          'The PNG screenshot the check took of the step’s page, where its target is now: what POST …/replace would put in the step. ' +
          '404 when the check kept none for the step (it was ok, its page was not captured, it was captured as HTML only, or a newer check ' +
          'of the demo or a replace has dropped it).',
        params: checkStepParams,
        response: { 200: bytesResponse('The new screenshot', ['image/png']), ...errors },
      },
    },
    async (request, reply) => {
      const { id, check_id, step_id } = request.params;
      const image = await staleness.captureImage(callerOf(request), id, check_id, step_id);
      reply.header('cache-control', 'private, max-age=3600');
      return reply.type('image/png').send(image);
    },
  );

  // GET /v1/demos/:id/check-schedule — how often the demo is checked
  app.get(
    '/demos/:id/check-schedule',
    {
      config: { permission: 'demos.read' },
      schema: {
        tags,
        summary: 'Get a demo’s check schedule',
        description: '`interval` null when the demo is not checked on a schedule.',
        params: demoParams,
        response: { 200: dataEnvelope(scheduleSchema), ...errors },
      },
    },
    async (request) => ok(request, toSchedule(request.params.id, await staleness.schedule(callerOf(request), request.params.id))),
  );

  // PUT /v1/demos/:id/check-schedule — check the demo daily, weekly, or not on a schedule
  app.put(
    '/demos/:id/check-schedule',
    {
      config: { permission: 'demos.write' },
      schema: {
        tags,
        summary: 'Set a demo’s check schedule',
        description:
          'A scheduled check runs one interval after the schedule is set, then every interval (checked every 10 minutes). A scheduled ' +
          'check that finds drift sends `demo.stale` to webhooks, as every check does, and e-mails the demo’s owner when what is stale ' +
          'differs from the previous scheduled check. `interval: null` stops it.',
        params: demoParams,
        body: scheduleBody,
        response: { 200: dataEnvelope(scheduleSchema), ...errors },
      },
    },
    async (request) =>
      ok(request, toSchedule(request.params.id, await staleness.setSchedule(callerOf(request), request.params.id, request.body.interval))),
  );
}
