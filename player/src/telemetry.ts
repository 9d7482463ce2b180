import { postToHost } from './embed';
import type { Tracker } from './tracker';
import type { Hotspot, Step } from './wire';

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
    completed() {
      tracker?.track('completed', { step_number: steps[count - 1]!.number, seconds_on_previous: lap() });
      postToHost({ type: 'completed', step_count: count });
    },
    hotspotClicked(step: Step, spot: Hotspot) {
      postToHost({ type: 'hotspot_clicked', step_number: step.number, hotspot_id: spot.id, label: spot.label, action: spot.action.type });
    },
    ctaClicked(url: string) {
      postToHost({ type: 'cta_clicked', url });
    },
  };
}

export type Telemetry = ReturnType<typeof createTelemetry>;
