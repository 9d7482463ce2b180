// GET /v1/demos/:id/analytics/paths: which way viewers went through an interactive demo — chapters chosen
// and each chapter's funnel, the paths of chapters, hotspots and buttons used, calls to action, lead forms.
import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import type { DemoSnapshot } from '../demos/demo-snapshot';
import { type AnalyticsContext, type AnalyticsRange, daysOf, ratio, requireDemo } from './analytics-context';
import * as repo from './analytics.repo';

/** The paths answered, most viewed first. */
export const TOP_PATHS = 20;

/** What the versions call the things counted: looked up in the reference version first, then newest first. */
interface Names {
  chapter(id: string): string | null;
  chapterSteps(id: string): number[] | undefined;
  step(number: number): string | null;
  element(
    step: number,
    id: string,
  ): { kind: 'hotspot' | 'button'; label: string; actionType: string; target: string | number | null; cta: string | null } | undefined;
}

/**
 * Figures by path, O(days × (chapters × steps + elements)) from the roll-ups. Names come from the version
 * asked for, else the one viewers are served now, else the other versions played (newest first); a chapter's
 * funnel lists that version's steps of the chapter.
 *
 * @example
 * ```ts
 * const { chapters, paths, branches, ctas, forms } = await pathAnalytics(ctx, auth, 'demo_01j…', { version: 3 });
 * ```
 */
export async function pathAnalytics(ctx: AnalyticsContext, auth: AuthContext, demoId: string, query: AnalyticsRange & { version?: number }) {
  await requireDemo(ctx, auth, demoId);
  const range = daysOf(query);
  const reference = await ctx.demos.versionSnapshot(demoId, query.version);
  if (query.version !== undefined && !reference) throw notFound('Version');
  const [daily, steps, chapters, chapterSteps, paths, elements, forms, played] = await Promise.all([
    repo.dailyTotals(ctx.db, { demoId }, range),
    repo.stepTotals(ctx.db, demoId, range),
    repo.chapterTotals(ctx.db, demoId, range),
    repo.chapterStepTotals(ctx.db, demoId, range),
    repo.pathTotals(ctx.db, demoId, range, TOP_PATHS),
    repo.elementTotals(ctx.db, demoId, range),
    repo.formTotals(ctx.db, demoId, range),
    repo.versionsPlayed(ctx.db, demoId, range),
  ]);
  const others = query.version !== undefined ? [] : played.filter((v) => v > 0 && v !== reference?.number).reverse();
  const snapshots = [
    ...(reference ? [reference.snapshot] : []),
    ...(await Promise.all(others.map((v) => ctx.demos.versionSnapshot(demoId, v)))).flatMap((s) => (s ? [s.snapshot] : [])),
  ];
  const names = namesOf(snapshots);
  const totalViews = daily.reduce((n, d) => n + d.views, 0);
  const stepViews = new Map(steps.map((s) => [s.stepNumber, s.views]));
  const funnelRows = new Map<string, Map<number, number>>();
  for (const r of chapterSteps) {
    const rows = funnelRows.get(r.chapterId) ?? new Map<number, number>();
    rows.set(r.stepNumber, r.views);
    funnelRows.set(r.chapterId, rows);
  }

  return {
    total_views: totalViews,
    chapters: chapters.map((c) => {
      const counted = funnelRows.get(c.chapterId) ?? new Map<number, number>();
      // The chapter's steps in the reference version; for a chapter it does not have, the steps counted.
      const numbers = names.chapterSteps(c.chapterId) ?? [...counted.keys()].sort((a, b) => a - b);
      const funnel = numbers.map((number) => ({
        number,
        title: names.step(number),
        views: counted.get(number) ?? 0,
        share: ratio(counted.get(number) ?? 0, c.views),
      }));
      const completed = funnel.at(-1)?.views ?? 0;
      return {
        chapter_id: c.chapterId,
        title: names.chapter(c.chapterId),
        choices: c.choices,
        views: c.views,
        choice_rate: ratio(c.views, totalViews),
        completed,
        completion_rate: ratio(completed, c.views),
        demo_completions: c.completions,
        funnel,
      };
    }),
    paths: paths.map((p) => {
      const ids = p.path.split('>');
      return { chapters: ids, titles: ids.map((id) => names.chapter(id)), views: p.views, share: ratio(p.views, totalViews) };
    }),
    branches: elements
      .filter((e) => e.actionClicks > 0)
      .map((e) => {
        const known = names.element(e.stepNumber, e.elementId);
        return {
          step_number: e.stepNumber,
          element_id: e.elementId,
          kind: known?.kind ?? null,
          label: known?.label ?? null,
          action_type: known?.actionType ?? e.actionType,
          target: known?.target ?? null,
          clicks: e.actionClicks,
          views: e.actionViews,
          click_rate: ratio(e.actionViews, stepViews.get(e.stepNumber) ?? 0),
        };
      }),
    ctas: elements
      .filter((e) => e.ctaClicks > 0)
      .map((e) => {
        const known = names.element(e.stepNumber, e.elementId);
        return {
          step_number: e.stepNumber,
          button_id: e.elementId,
          label: known?.label ?? null,
          cta: known?.cta ?? null,
          clicks: e.ctaClicks,
          views: e.ctaViews,
          click_through_rate: ratio(e.ctaViews, stepViews.get(e.stepNumber) ?? 0),
        };
      }),
    forms: forms.map((f) => ({
      step_number: f.stepNumber,
      title: names.step(f.stepNumber),
      shown: f.shown,
      started: f.started,
      submitted: f.submitted,
      start_rate: ratio(f.started, f.shown),
      conversion: ratio(f.submitted, f.shown),
    })),
    versions_played: played,
  };
}

/** Lookups over the snapshots, the first that names a thing winning. Step numbers are 1 + position order. */
function namesOf(snapshots: DemoSnapshot[]): Names {
  const first = <T>(pick: (s: DemoSnapshot) => T | undefined): T | undefined => {
    for (const s of snapshots) {
      const found = pick(s);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const steps = (s: DemoSnapshot) => [...s.steps].sort((a, b) => a.position - b.position);
  return {
    chapter: (id) => first((s) => s.chapters?.find((c) => c.id === id)?.title) ?? null,
    chapterSteps: (id) => {
      const s = snapshots[0];
      if (!s?.chapters?.some((c) => c.id === id)) return undefined;
      return steps(s).flatMap((step, i) => (step.chapter_id === id ? [i + 1] : []));
    },
    step: (number) => first((s) => steps(s)[number - 1]?.title) ?? null,
    element: (number, id) =>
      first((s) => {
        const ordered = steps(s);
        // Targets as answers give them: a step by its number, anything else (chapter id, address) as it is.
        const targetOf = (target: unknown) => {
          if (target === undefined || target === null) return null;
          const index = ordered.findIndex((st) => st.id === target);
          return index >= 0 ? index + 1 : typeof target === 'number' ? target : String(target);
        };
        const step = ordered[number - 1];
        if (!step) return undefined;
        const hotspot = step.hotspots.find((h) => h.id === id);
        if (hotspot) {
          return { kind: 'hotspot' as const, label: hotspot.label, actionType: hotspot.action_type, target: targetOf(hotspot.action_target), cta: null };
        }
        const button = step.content?.buttons.find((b) => b.id === id);
        if (!button) return undefined;
        return {
          kind: 'button' as const,
          label: button.label,
          actionType: button.action.type,
          target: targetOf(button.action.target),
          cta: button.cta ?? null,
        };
      }),
  };
}
