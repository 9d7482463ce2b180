import type { z } from 'zod';
import type { eventsBody, viewerDemoSchema, viewerStateSchema } from '../../src/shares/viewer.schemas';

// The viewer API's payloads, derived from the server's schemas so that a renamed field breaks the type
// check rather than viewers. Type-only: nothing of the server reaches the bundle. This is the one file
// that names the server's viewer schemas, so a move on the server side is a one-line change here.

export type ViewerState = z.output<typeof viewerStateSchema>;

type DemoPayload = z.output<typeof viewerDemoSchema>;
type StepPayload = DemoPayload['steps'][number];

// The payload already carries each hotspot's `selector`, which viewerDemoSchema does not list yet
// (issue 9): until it does, the player reads it as optional. Then these three become plain aliases.
export type Hotspot = StepPayload['hotspots'][number] & { selector?: string | null };
export type Step = Omit<StepPayload, 'hotspots'> & { hotspots: Hotspot[] };
export type PlayableDemo = Omit<DemoPayload, 'steps'> & { steps: Step[] };
export type Configuration = DemoPayload['configuration'];

/** One viewing event as the player sends it (the request body's shape, before the server's defaults). */
export type TrackedEvent = z.input<typeof eventsBody>['events'][number];
