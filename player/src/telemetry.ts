import { postToHost } from './embed';
import type { Tracker } from './tracker';
import type { ActionType, PathEventType, Step } from './wire';

/**
 * What the viewer does, told twice: to the server as viewing events (through the tracker, which keeps
 * them until accepted) and to the embedding page as messages. Both are said in one place so the two
 * never disagree on a step number.
 */
export function createTelemetry(tracker: Pick<Tracker, 'track'> | null, steps: Step[]) {
  const count = steps.length;
  let enteredAt = performance.now();

  /** Seconds on the step being left; the clock starts again for the next one. */
  function lap(): number {
    const now = performance.now();
    const seconds = Math.round((now - enteredAt) / 100) / 10;
    enteredAt = now;
    return seconds;
  }

  return {
    lap,
    started(first: Step) {
      tracker?.track('view_started', { step_number: first.number, ...(document.referrer ? { referrer: document.referrer.slice(0, 2048) } : {}) });
      postToHost({ type: 'ready', step_count: count });
      postToHost({ type: 'step_reached', step_number: first.number, step_count: count });
    },
    /** `seconds`: from lap(), taken before the new step was drawn. */
    reached(step: Step, seconds: number) {
      tracker?.track('step_reached', { step_number: step.number, seconds_on_previous: seconds });
      postToHost({ type: 'step_reached', step_number: step.number, step_count: count });
    },
    /** `step`: where the demo was finished (the last step of a linear demo). */
    completed(step: Step = steps[count - 1]!) {
      tracker?.track('completed', { step_number: step.number, seconds_on_previous: lap() });
      postToHost({ type: 'completed', step_count: count });
    },
    hotspotClicked(step: Step, spot: { id: string; label: string; action: { type: string } }) {
      postToHost({ type: 'hotspot_clicked', step_number: step.number, hotspot_id: spot.id, label: spot.label, action: spot.action.type });
    },
    /** A hotspot or button acted: the branch the viewer took (`target`: the step it led to). */
    action(step: Step, elementId: string, type: ActionType, target: Step | null) {
      const at = target ? { target_step: target.number } : {};
      tracker?.track('action_taken', { step_number: step.number, element_id: elementId, action_type: type, ...at });
      postToHost({ type: 'action_taken', step_number: step.number, element_id: elementId, action_type: type, ...at });
    },
    chapterSelected(step: Step, chapterId: string) {
      tracker?.track('chapter_selected', { step_number: step.number, chapter_id: chapterId });
      postToHost({ type: 'chapter_selected', step_number: step.number, chapter_id: chapterId });
    },
    /** The demo's own call to action (`config.call_to_action`), or a step's button (`step`, `elementId`). */
    ctaClicked(url: string, step?: Step, elementId?: string) {
      if (step && elementId) {
        tracker?.track('cta_clicked', { step_number: step.number, element_id: elementId });
        postToHost({ type: 'cta_clicked', url, step_number: step.number, element_id: elementId });
      } else postToHost({ type: 'cta_clicked', url });
    },
    form(type: Extract<PathEventType, 'form_shown' | 'form_started' | 'form_submitted'>, step: Step) {
      tracker?.track(type, { step_number: step.number });
      if (type !== 'form_started') postToHost({ type, step_number: step.number });
    },
  };
}

export type Telemetry = ReturnType<typeof createTelemetry>;
