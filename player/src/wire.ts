import type { z } from 'zod';
import type { ActionType, FormField, StepKind, StoryButton, StoryForm } from '../../src/demos/story.schemas';
import type { viewerDemoSchema, viewerStateSchema } from '../../src/viewing/viewer.schemas';
import type { eventsBody } from '../../src/viewing/view-events.schemas';

// The viewer API's payloads, derived from the server's schemas so that a renamed field breaks the type
// check rather than viewers. Type-only: nothing of the server reaches the bundle. This is the one file
// that names the server's viewer schemas, so a move on the server side is a one-line change here.
// The story's fields (issue 29: kinds, chapters, buttons, forms, rich text, variables) are read as optional:
// a payload cached from an older server has none of them, and such a demo plays as a line of pages.

export type ViewerState = z.output<typeof viewerStateSchema>;

type DemoPayload = z.output<typeof viewerDemoSchema>;
type StepPayload = DemoPayload['steps'][number];

export type { ActionType, FormField, StepKind, StoryButton, StoryForm };

export interface StoryAction {
  type: ActionType;
  target?: number | string | null;
}

export type Hotspot = Omit<StepPayload['hotspots'][number], 'action' | 'tooltip_html'> & {
  action: StoryAction;
  tooltip_html?: string | null;
};

export type Button = Omit<StoryButton, 'action'> & { action: StoryAction };

export type Step = Omit<StepPayload, 'hotspots' | 'kind' | 'chapter_id' | 'description_html' | 'buttons' | 'form'> & {
  hotspots: Hotspot[];
  kind?: StepKind;
  chapter_id?: string | null;
  description_html?: string | null;
  buttons?: Button[];
  form?: StoryForm | null;
};

export interface Chapter {
  id: string;
  title: string;
  description?: string | null;
  first_step: number | null;
}

export type PlayableDemo = Omit<DemoPayload, 'steps' | 'chapters' | 'variables'> & {
  steps: Step[];
  chapters?: Chapter[];
  variables?: Record<string, string>;
};
export type Configuration = DemoPayload['configuration'];

/** The viewing events the server has always taken. */
export type StandardEvent = z.input<typeof eventsBody>['events'][number];
/** Which chapter and branch viewers take, clicks per call to action, form conversion (issue 29). */
export type PathEventType = 'chapter_selected' | 'action_taken' | 'cta_clicked' | 'form_shown' | 'form_started' | 'form_submitted';
export interface PathEvent {
  id: string;
  type: PathEventType;
  at?: string;
  step_number?: number;
  seconds_on_previous?: number;
  chapter_id?: string;
  element_id?: string;
  action_type?: ActionType;
  target_step?: number;
}
/** One viewing event as the player sends it (the request body's shape, before the server's defaults). */
export type TrackedEvent = StandardEvent | PathEvent;
