// The story of a demo as a graph, and what is wrong with it: steps no path reaches, actions aimed at what is
// gone, chapters without steps, forms that cannot be sent, stories with no way to their end. Pure: the
// editor shows the problems (GET /v1/demos/:id `story_problems`) and publishing refuses a story that has any.
// It follows the player's rules (player/src/player-state.ts): `next` from a chapter's last step goes back to
// the chapter menu it was chosen on; page and cover steps also go on by the player's Next.
import type { ChapterRow } from './chapters.repo';
import { resolveConfiguration } from './demo-configuration.schemas';
import type { HotspotRow, StepRow } from './demos.repo';
import type { StepKind } from './story.schemas';

export const STORY_PROBLEM_CODES = [
  'unreachable_step',
  'dangling_target',
  'empty_chapter',
  'form_without_submit',
  'submit_without_form',
  'no_end',
] as const;
export type StoryProblemCode = (typeof STORY_PROBLEM_CODES)[number];

export interface StoryProblem {
  code: StoryProblemCode;
  message: string;
  /** The step the problem is on (null for a chapter without steps or the story as a whole). */
  step_number: number | null;
  /** The hotspot or button whose action is wrong, when it is one. */
  element_id: string | null;
  /** The chapter it is about, when it is one. */
  chapter_id: string | null;
}

/** An action as stored: step targets by id. */
interface StoredAction {
  type: string;
  target?: string | number | null;
}

export interface StoryStep {
  id: string;
  position: number;
  title: string;
  kind: StepKind;
  chapterId: string | null;
  content: { buttons?: { id: string; action: StoredAction }[]; form?: { skippable?: boolean } | undefined };
}

export interface StoryInput {
  steps: StoryStep[];
  hotspots: { id: string; stepId: string; actionType: string; actionTarget: string | null }[];
  chapters: { id: string; position: number; title: string }[];
  /** Whether the viewer may go on by the player's Next (button or keyboard): page and cover steps then always can. */
  navigation: boolean;
}

/** A step as messages name it: its number and, when it has one, its title. */
function named(step: Pick<StoryStep, 'position' | 'title'>): string {
  return step.title ? `Step ${step.position} (“${step.title}”)` : `Step ${step.position}`;
}

const END = -1;

/**
 * Every problem of the story, in step order. A linear demo (every action `next`, no chapters) has none.
 *
 * @example
 * ```ts
 * storyProblems({ steps, hotspots, chapters, navigation: true });
 * // [{ code: 'unreachable_step', step_number: 4, message: 'Step 4 (“Reports”) cannot be reached from step 1 ...' }]
 * ```
 */
export function storyProblems(input: StoryInput): StoryProblem[] {
  const steps = [...input.steps].sort((a, b) => a.position - b.position);
  if (steps.length === 0) return [];
  const indexById = new Map(steps.map((s, i) => [s.id, i]));
  const chapterById = new Map(input.chapters.map((c) => [c.id, c]));
  const firstOfChapter = new Map<string, number>();
  steps.forEach((s, i) => {
    if (s.chapterId && !firstOfChapter.has(s.chapterId)) firstOfChapter.set(s.chapterId, i);
  });
  const problems: StoryProblem[] = [];
  const problem = (code: StoryProblemCode, message: string, step: StoryStep | null, elementId: string | null = null, chapterId: string | null = null) =>
    problems.push({ code, message, step_number: step?.position ?? null, element_id: elementId, chapter_id: chapterId });

  // Each step's actions: its hotspots', then its buttons'.
  const actionsOf = steps.map((s) => [
    ...input.hotspots
      .filter((h) => h.stepId === s.id)
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((h) => ({ element: h.id, what: 'hotspot', action: { type: h.actionType, target: h.actionTarget } as StoredAction })),
    ...(s.content.buttons ?? []).map((b) => ({ element: b.id, what: 'button', action: b.action })),
  ]);

  // Targets that name nothing of the demo (a deleted step or chapter).
  steps.forEach((s, i) => {
    for (const { element, what, action } of actionsOf[i]!) {
      const target = typeof action.target === 'string' ? action.target : null;
      if ((action.type === 'goto' && (!target || !indexById.has(target))) || (action.type === 'submit' && target && !indexById.has(target))) {
        problem('dangling_target', `${named(s)}: the ${what} “${element}” goes to a step that no longer exists`, s, element);
      }
      if (action.type === 'chapter' && (!target || !chapterById.has(target))) {
        problem('dangling_target', `${named(s)}: the ${what} “${element}” opens a chapter that no longer exists`, s, element, target);
      }
    }
    // The player sends a form only from a form step: elsewhere the button would do nothing at all.
    if (!(s.kind === 'form' && s.content.form)) {
      for (const { element, what, action } of actionsOf[i]!) {
        if (action.type === 'submit') {
          problem('submit_without_form', `${named(s)}: the ${what} “${element}” sends a form, but this step has none`, s, element);
        }
      }
    }
    if (s.kind === 'form' && !s.content.form) {
      problem('form_without_submit', `${named(s)} is a form step without a form: nothing can be sent from it`, s);
    }
  });

  // Chapters nobody can play: no step belongs to them.
  for (const chapter of [...input.chapters].sort((a, b) => a.position - b.position)) {
    if (firstOfChapter.has(chapter.id)) continue;
    const offeredBy = steps.find((_, i) => actionsOf[i]!.some(({ action }) => action.type === 'chapter' && action.target === chapter.id));
    problem(
      'empty_chapter',
      offeredBy
        ? `Chapter “${chapter.title}” has no steps, but ${named(offeredBy).toLowerCase()} offers it`
        : `Chapter “${chapter.title}” has no steps`,
      offeredBy ?? null,
      null,
      chapter.id,
    );
  }

  // Where the viewer can go: states are (step, the chapter menu a chapter was chosen on), as in the player.
  const seen = new Set<string>();
  const reached = new Set<number>();
  let ends = false;
  const queue: [number, number | null][] = [[0, null]];
  const visit = (to: number | null, menu: number | null) => {
    if (to === null) return;
    if (to === END) {
      ends = true;
      return;
    }
    const key = `${to}:${menu ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    queue.push([to, menu]);
  };
  seen.add('0:');
  while (queue.length > 0) {
    const [index, menu] = queue.shift()!;
    reached.add(index);
    const step = steps[index]!;
    if (step.kind === 'end') ends = true;
    const nextIndex = () => {
      const chapter = step.chapterId;
      if (menu !== null && chapter && steps[index + 1]?.chapterId !== chapter) return menu;
      return index < steps.length - 1 ? index + 1 : END;
    };
    const targetOf = (action: StoredAction): number | null => {
      switch (action.type) {
        case 'next':
          return nextIndex();
        case 'goto':
        case 'submit': {
          const to = typeof action.target === 'string' ? indexById.get(action.target) : undefined;
          return to !== undefined && to !== index ? to : nextIndex();
        }
        case 'chapter':
          return typeof action.target === 'string' ? (firstOfChapter.get(action.target) ?? null) : null;
        case 'end': {
          const to = steps.findIndex((s, i) => i > index && s.kind === 'end');
          return to >= 0 ? to : END;
        }
        case 'restart':
          return 0;
        default:
          // url opens a tab and stays; demo leaves for another demo.
          return null;
      }
    };
    for (const { action } of actionsOf[index]!) {
      const to = targetOf(action);
      if (action.type === 'restart') visit(to, null);
      else if (action.type === 'chapter' && step.kind === 'chapter_menu') visit(to, index);
      else visit(to, menu);
    }
    // The player's own ways on: Next on pages and covers, the form's submit (and Skip) on a form.
    if (input.navigation && (step.kind === 'page' || step.kind === 'cover')) visit(nextIndex(), menu);
    if (step.kind === 'page' && actionsOf[index]!.length === 0) visit(nextIndex(), menu);
    if (step.kind === 'cover' && actionsOf[index]!.length === 0) visit(nextIndex(), menu);
    if (step.kind === 'form' && step.content.form) {
      const hasSubmit = actionsOf[index]!.some(({ action }) => action.type === 'submit');
      if (!hasSubmit) visit(nextIndex(), menu);
      if (step.content.form.skippable) visit(nextIndex(), menu);
    }
  }

  steps.forEach((s, i) => {
    if (reached.has(i)) return;
    problem('unreachable_step', `${named(s)} cannot be reached from step 1: no action or Next leads to it`, s);
  });
  if (!ends) {
    problems.push({
      code: 'no_end',
      message: 'No path from step 1 reaches the end of the demo: give a chapter menu or the last step a way on (an end step, `next` or `end`)',
      step_number: null,
      element_id: null,
      chapter_id: null,
    });
  }
  return problems.sort((a, b) => (a.step_number ?? Number.MAX_SAFE_INTEGER) - (b.step_number ?? Number.MAX_SAFE_INTEGER));
}

/**
 * The problems of a demo's draft as loaded (steps, hotspots, chapters, configuration): what GET
 * /v1/demos/:id answers as `story_problems` and what publishing refuses.
 */
export function problemsOfContent(content: {
  demo: { configuration: Record<string, unknown> };
  steps: StepRow[];
  hotspots: HotspotRow[];
  chapters?: ChapterRow[];
}) {
  const { navigation } = resolveConfiguration(content.demo.configuration, null);
  return storyProblems({
    steps: content.steps,
    hotspots: content.hotspots,
    chapters: content.chapters ?? [],
    navigation: navigation.buttons || navigation.keyboard,
  });
}
