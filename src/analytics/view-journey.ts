// GET /v1/demos/:id/views/:view_id/journey: one view step by step, and the same viewer's other views.
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import { type AnalyticsContext, requireDemo, round } from './analytics-context';
import * as repo from './analytics.repo';

const OTHER_VIEWS = 20;

/**
 * One view with its steps in the order reached (titled from the version it played), and up to 20 other
 * views of the workspace's demos by the same e-mail address. `stepRows` are the raw rows, for the view's
 * own mapping.
 *
 * @example
 * ```ts
 * const { view, steps, other_views } = await viewJourney(ctx, auth, 'demo_01j…', 'view_01j…');
 * ```
 */
export async function viewJourney(ctx: AnalyticsContext, auth: AuthContext, demoId: string, viewId: string) {
  await requireDemo(ctx, auth, demoId);
  const found = await repo.findViewWithSteps(ctx.db, demoId, viewId);
  if (!found) throw notFound('View');
  const { view, steps } = found;
  const [titles, others] = await Promise.all([
    view.version ? ctx.demos.versionStepTitles(demoId, view.version) : undefined,
    view.viewerEmail ? repo.otherViews(ctx.db, auth.workspaceId, view.id, view.viewerEmail, OTHER_VIEWS) : [],
  ]);
  return {
    view,
    steps: steps.map((s) => ({
      number: s.stepNumber,
      title: titles?.[s.stepNumber - 1] ?? null,
      seconds: round(s.seconds),
      first_reached_at: s.firstReachedAt.toISOString(),
    })),
    stepRows: steps,
    other_views: others.map((o) => ({
      id: o.id,
      demo_id: o.demoId,
      demo_title: o.demoTitle,
      started_at: o.startedAt.toISOString(),
      completed: o.completed,
      steps_viewed: o.stepsViewed,
      duration_seconds: round(o.durationSeconds),
    })),
  };
}
