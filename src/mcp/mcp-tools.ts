// The MCP tools, for both transports, in the order clients list them (the A/B test ones: mcp-ab-test.tools.ts).
import { z } from 'zod';
import { PERMISSIONS } from '../auth/permissions';
import { idSchema } from '../core/ids';
import { httpUrl, text } from '../core/text';
import { DATE_FILTER_RANGE_TEXT, dateFilter } from '../core/time';
import { DEMO_STATUSES } from '../demos/demos.tables';
import { createShareBody } from '../shares/shares.schemas';
import { AB_TEST_TOOLS } from './mcp-ab-test.tools';
import type { Json } from './mcp-backend';
import { page, perPage, type ToolDefinition, tool } from './mcp-tool';

const demoId = idSchema('demo').describe('The demo id (demo_...), as list_demos or create_demo_from_url return it.');
const startDate = dateFilter.optional().describe(`First day, YYYY-MM-DD (UTC, inclusive). Left out: from the beginning. ${DATE_FILTER_RANGE_TEXT}`);
const endDate = dateFilter.optional().describe(`Last day, YYYY-MM-DD (UTC, inclusive). Left out: up to now. ${DATE_FILTER_RANGE_TEXT}`);
const includeInternal = z
  .boolean()
  .optional()
  .describe('Count the workspace’s own members’ views too (left out by default, as in the dashboard).');
const granularity = z
  .enum(['day', 'week', 'month'])
  .optional()
  .describe('Adds `series`: one entry per day, week or month of the range, with views, unique viewers and completions.');

/** How long get_generation_status may wait for the end of a generation, in seconds. */
export const MAX_WAIT_SECONDS = 60;
const POLL_MS = 1_000;

/** A demo's generation, as get_generation_status and create_demo_from_url tell it. */
export function generationReport(demo: Json) {
  const generation = (demo.generation ?? {}) as { status?: string; error?: string | null; started_at?: string | null };
  const status = generation.status ?? 'none';
  const done = demo.status !== 'generating';
  const next = !done
    ? 'Still generating: call get_generation_status again (with wait_seconds) until done is true.'
    : status === 'failed'
      ? 'Generation failed (see error); the demo is an empty draft.'
      : 'Ready: read it with get_demo, publish it with publish_demo, then share it with create_share_link.';
  return {
    demo_id: demo.id,
    title: demo.title,
    demo_status: demo.status,
    generation_status: status,
    done,
    error: generation.error ?? null,
    step_count: demo.step_count,
    started_at: generation.started_at ?? null,
    finished_at: (demo.generation as { finished_at?: string | null } | undefined)?.finished_at ?? null,
    next,
  };
}

const STAGES: Record<string, number> = { none: 0, queued: 0, running: 1, succeeded: 2, failed: 2 };

export const TOOLS: readonly ToolDefinition[] = [
  tool({
    name: 'list_demos',
    title: 'List or search demos',
    description:
      'Lists the workspace’s interactive product demos, newest first, a page at a time. Pass `search` to find ' +
      'demos whose title or source URL contains the text (case-insensitive), and `status` to keep one status. ' +
      'Each demo comes with its id, title, status (generating, draft, published, archived), step_count, ' +
      'share_url (while published) and dates; `meta.total` is the number of matches.',
    input: z
      .object({
        search: text().trim().max(200).optional().describe('Text to find in the title or source URL.'),
        status: z.enum(DEMO_STATUSES).optional().describe('Only demos in this status.'),
        page,
        per_page: perPage,
      })
      .strict(),
    permission: 'demos.read',
    readOnly: true,
    run: (backend, input) => backend.listDemos(input),
  }),
  tool({
    name: 'get_demo',
    title: 'Read a demo',
    description:
      'Reads one demo in full: its title, status, generation state, steps in order (number, kind, title, ' +
      'description, page_url, image_url, buttons and form), hotspots (where a viewer clicks on each step, and what happens), ' +
      'chapters, story_problems (what would lose a viewer; publishing is refused while there are any) ' +
      'and configuration (theme, navigation, call to action), plus share_url while published.',
    input: z.object({ demo_id: demoId }).strict(),
    permission: 'demos.read',
    readOnly: true,
    run: (backend, input) => backend.getDemo(input.demo_id),
  }),
  tool({
    name: 'create_demo_from_url',
    title: 'Create a demo from a web page',
    description:
      'Starts generating a new demo from a public web page: the page is captured and turned into steps with ' +
      'hotspots. Answers at once with the demo id while it is still generating (it usually takes seconds to ' +
      'a minute); then call get_generation_status with that id and wait_seconds until `done` is true. ' +
      'The demo ends as a draft (publish it with publish_demo). Generation is rate-limited per workspace.',
    input: z
      .object({
        source_url: httpUrl.describe('The http(s) address of the page to capture, e.g. https://example.com/pricing.'),
        title: text().trim().min(1).max(200).optional().describe('A title; left out, the page’s own title is used.'),
      })
      .strict(),
    permission: 'demos.write',
    readOnly: false,
    run: async (backend, input) => {
      const demo = await backend.createDemo({ source_url: input.source_url, title: input.title, generate_with_ai: true });
      return generationReport(demo);
    },
  }),
  tool({
    name: 'get_generation_status',
    title: 'Follow a demo’s generation',
    description:
      'Tells how far the generation of a demo is: generation_status queued → running → succeeded or failed, ' +
      '`done` once the demo has left `generating`, with step_count and any error. With `wait_seconds` it waits ' +
      `(up to ${MAX_WAIT_SECONDS} s) for the generation to end before answering, so one call usually suffices; ` +
      'call again while `done` is false.',
    input: z
      .object({
        demo_id: demoId,
        wait_seconds: z
          .number()
          .int()
          .min(0)
          .max(MAX_WAIT_SECONDS)
          .default(0)
          .describe(`Wait up to this many seconds (0 to ${MAX_WAIT_SECONDS}) for the generation to finish.`),
      })
      .strict(),
    permission: 'demos.read',
    readOnly: true,
    run: async (backend, input, progress) => {
      const deadline = Date.now() + input.wait_seconds * 1_000;
      for (;;) {
        const report = generationReport(await backend.getDemo(input.demo_id));
        await progress(STAGES[report.generation_status] ?? 0, 2, `generation ${report.generation_status}`);
        if (report.done || Date.now() + POLL_MS > deadline) return report;
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      }
    },
  }),
  tool({
    name: 'publish_demo',
    title: 'Publish a demo',
    description:
      'Publishes a demo so that its share links play it: a draft becomes published; on a published demo with ' +
      'unpublished edits the edits become the version viewers see. Refused (conflict) while generating, when ' +
      'archived, or without steps, and (validation_error) while the story has problems (get_demo: story_problems, ' +
      'each naming its step). Answers the demo, with share_url once it has a share link.',
    input: z.object({ demo_id: demoId }).strict(),
    permission: 'demos.write',
    readOnly: false,
    run: (backend, input) => backend.publishDemo(input.demo_id),
  }),
  tool({
    name: 'list_share_links',
    title: 'List a demo’s share links',
    description:
      'Lists the active share links of a demo (oldest first): url (the page to send to viewers), embed_url ' +
      '(for an iframe), name, has_password, expires_at, require_identification and view_count.',
    input: z.object({ demo_id: demoId }).strict(),
    permission: 'shares.read',
    readOnly: true,
    run: async (backend, input) => ({ data: await backend.listShares(input.demo_id) }),
  }),
  tool({
    name: 'create_share_link',
    title: 'Create a share link',
    description:
      'Creates a link viewers open to play a demo (`url`; `embed_url` for an iframe). Optional: a name to ' +
      'recognise it, a password, an expiry, and require_identification (viewers give a name and e-mail, ' +
      'optionally limited to allowed_emails / allowed_domains), and variables (personalisation for one account: ' +
      '{"company": "Acme"} fills {{company}} in the demo). Viewers can play it once the demo is published.',
    // The REST body's fields and rules, after the demo's id.
    input: z.object({ demo_id: demoId, ...createShareBody.shape }).strict(),
    permission: 'shares.write',
    readOnly: false,
    run: (backend, { demo_id, ...body }) => backend.createShare(demo_id, body),
  }),
  tool({
    name: 'get_analytics_overview',
    title: 'Workspace analytics',
    description:
      'Engagement over every demo of the workspace for a date range: total views, unique viewers, completion ' +
      'rate (completed views / views), average time, and the ten most viewed demos; with `granularity`, a ' +
      'series over time. Dates are whole UTC days.',
    input: z.object({ start_date: startDate, end_date: endDate, granularity, include_internal: includeInternal }).strict(),
    permission: 'analytics.read',
    readOnly: true,
    run: (backend, input) => backend.workspaceAnalytics(input),
  }),
  tool({
    name: 'get_demo_analytics',
    title: 'A demo’s analytics',
    description:
      'Engagement with one demo: views, unique viewers, completion rate, average time, and per step the views ' +
      'that reached it, the average seconds on it and its drop-off rate (where viewers leave); with ' +
      '`granularity`, a series over time. Dates are whole UTC days.',
    input: z
      .object({
        demo_id: demoId,
        start_date: startDate,
        end_date: endDate,
        granularity,
        include_internal: includeInternal,
        version: z.number().int().min(1).optional().describe('Only the views of this published version of the demo.'),
      })
      .strict(),
    permission: 'analytics.read',
    readOnly: true,
    run: (backend, { demo_id, ...query }) => backend.demoAnalytics(demo_id, query),
  }),
  tool({
    name: 'get_demo_paths',
    title: 'How viewers went through an interactive demo',
    description:
      'For a demo with chapters, branches, forms or calls to action: which chapters viewers chose (and how many ' +
      'finished each), the most common paths through the demo, the hotspots and buttons used at each branch, the ' +
      'calls to action clicked, and each lead form shown, started and submitted (its conversion). A linear demo ' +
      'has few of these: use get_demo_analytics for views, completion and drop-off per step. Dates are whole UTC days.',
    input: z
      .object({
        demo_id: demoId,
        start_date: startDate,
        end_date: endDate,
        include_internal: includeInternal,
        version: z.number().int().min(1).optional().describe('Name steps, chapters and buttons as this published version does.'),
      })
      .strict(),
    permission: 'analytics.read',
    readOnly: true,
    run: (backend, { demo_id, ...query }) => backend.demoPaths(demo_id, query),
  }),
  tool({
    name: 'list_views',
    title: 'List a demo’s views',
    description:
      'Lists the individual views of a demo (one per viewer session), newest first: the viewer (e-mail and ' +
      'name when they identified), steps viewed with seconds on each, whether they completed, duration, ' +
      'referrer and company. Filter by date range or viewer e-mail.',
    input: z
      .object({
        demo_id: demoId,
        start_date: startDate,
        end_date: endDate,
        viewer_email: text().trim().max(254).optional().describe('Only the views of this e-mail address.'),
        include_internal: includeInternal,
        page,
        per_page: perPage,
      })
      .strict(),
    permission: 'analytics.read',
    readOnly: true,
    run: (backend, { demo_id, ...query }) => backend.listViews(demo_id, query),
  }),
  ...AB_TEST_TOOLS,
];

/** The scope a tool needs, as its description ends (the same table as the REST API's). */
export function toolScope(definition: ToolDefinition): string | null {
  return PERMISSIONS[definition.permission].scope;
}
