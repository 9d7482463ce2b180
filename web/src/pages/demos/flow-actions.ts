// Setting the action of a hotspot or a button from the flow view, as an undoable history entry.
// Hotspots have their own route; buttons live in their step's `content`, so a button's change sends the
// step's content with that one button's action changed, read from the latest answer at the time it runs
// (an undo after other edits of the step keeps those edits).
import { api } from '../../api/client';
import type { HistoryEntry } from './use-history';
import type { FlowElement, StoryAction, StoryInput } from './flow-story';

const stepPath = (demoId: string, stepId: string) => `/demos/${encodeURIComponent(demoId)}/steps/${encodeURIComponent(stepId)}`;

type Content = { buttons?: ReadonlyArray<{ id: string; action: StoryAction }> } & Record<string, unknown>;

/** Step targets as step ids in requests: an undo still points at the same step after a reorder. */
export function stableAction(action: StoryAction, story: Pick<StoryInput, 'steps'>): StoryAction {
  if ((action.type === 'goto' || action.type === 'submit') && typeof action.target === 'number') {
    const step = story.steps.find((s) => s.number === action.target);
    if (step) return { type: action.type, target: step.id };
  }
  if (action.type === 'next' || action.type === 'end' || action.type === 'restart') return { type: action.type };
  return { type: action.type, target: action.target ?? null };
}

export async function sendAction(demoId: string, element: FlowElement, action: StoryAction, latest: () => StoryInput): Promise<unknown> {
  if (element.kind === 'hotspot') {
    return api('PATCH', `${stepPath(demoId, element.stepId)}/hotspots/${encodeURIComponent(element.id)}`, { body: { action } });
  }
  const step = latest().steps.find((s) => s.id === element.stepId);
  if (!step) throw new Error('The step of this button is gone.');
  const content = (step.content ?? {}) as Content;
  const buttons = (content.buttons ?? []).map((b) => (b.id === element.id ? { ...b, action } : b));
  return api('PATCH', stepPath(demoId, element.stepId), { body: { content: { ...content, buttons } } });
}

/**
 * The entry that points `element` at step `toStepId` (`goto`; a `submit` stays a submit with that target)
 * and, on undo, gives it back the action it had.
 */
export function branchEntry(demoId: string, element: FlowElement, toStepId: string, latest: () => StoryInput): HistoryEntry {
  const before = stableAction(element.action, latest());
  const after: StoryAction = { type: element.action.type === 'submit' ? 'submit' : 'goto', target: toStepId };
  return actionEntry(demoId, element, before, after, latest);
}

export function actionEntry(demoId: string, element: FlowElement, before: StoryAction, after: StoryAction, latest: () => StoryInput): HistoryEntry {
  return {
    undo: () => sendAction(demoId, element, before, latest),
    redo: () => sendAction(demoId, element, after, latest),
  };
}
