// The MCP tools of A/B tests on share links: start one, list a link's tests, read the results of any, stop one.
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { startExperimentBody, stopExperimentBody } from '../experiments/experiments.schemas';
import { page, perPage, type ToolDefinition, tool } from './mcp-tool';

const shareId = idSchema('share').describe('The share link id (shr_...), as list_share_links or create_share_link return it.');
const experimentId = idSchema('experiment').describe(
  'One of the link’s A/B tests (exp_...), as list_ab_tests returns them. Left out: the link’s newest test.',
);

export const AB_TEST_TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'start_ab_test',
    title: 'Start an A/B test on a share link',
    description:
      'Makes a share link serve two or more demos (or published versions of one) to its new viewers by weight, ' +
      'each viewer staying on the arm first shown, to learn which one converts better. The first arm is the ' +
      'control. `metric` says what counts as converting: completion (default), form_conversion or cta_click. ' +
      'Refused while the link already runs a test. Read the figures with get_ab_test_results; end it with stop_ab_test.',
    input: z.object({ share_id: shareId, ...startExperimentBody.shape }).strict(),
    permission: 'shares.write',
    readOnly: false,
    run: (backend, { share_id, ...body }) => backend.startAbTest(share_id, body),
  }),
  tool({
    name: 'list_ab_tests',
    title: 'List the A/B tests of a share link',
    description:
      'Every A/B test a share link has had, newest first, a page at a time: the running one and the stopped ones, ' +
      'each with its id, name, metric, arms (id, label, demo, weight), status, the arm it kept (`winner_arm_id`; ' +
      'null: none) and its dates. Pass an id to get_ab_test_results to read an earlier test’s figures.',
    input: z.object({ share_id: shareId, page, per_page: perPage }).strict(),
    permission: 'shares.read',
    readOnly: true,
    run: (backend, { share_id, ...query }) => backend.listAbTests(share_id, query),
  }),
  tool({
    name: 'get_ab_test_results',
    title: 'How an A/B test is doing',
    description:
      'The A/B test of a share link (running or stopped; the newest, or the one `experiment_id` names) with, per ' +
      'arm: views, unique viewers, completions, form conversions and call-to-action clicks with their rates, and ' +
      'each arm compared with the first on the test’s metric (difference, z, p-value, Bonferroni-corrected). ' +
      '`significance.verdict` says whether there is a winner yet (`too_small` below the minimum sample); the ' +
      'workspace’s own views are left out.',
    input: z.object({ share_id: shareId, experiment_id: experimentId.optional() }).strict(),
    permission: 'analytics.read',
    readOnly: true,
    run: (backend, input) => backend.abTestResults(input.share_id, input.experiment_id),
  }),
  tool({
    name: 'stop_ab_test',
    title: 'Stop an A/B test and keep the winner',
    description:
      'Ends a share link’s running A/B test: from now on every viewer gets `winner_arm_id` (an arm id from ' +
      'get_ab_test_results; null: the link’s own demo again). Left out, the winner is the arm the significance ' +
      'test named, and the call is refused while it has named none. The figures stay readable.',
    input: z.object({ share_id: shareId, ...stopExperimentBody.shape }).strict(),
    permission: 'shares.write',
    readOnly: false,
    run: (backend, { share_id, ...body }) => backend.stopAbTest(share_id, body),
  }),
];
