import type { z } from 'zod';
import type { viewerDemoSchema, viewerStateSchema } from '../../src/viewing/viewer.schemas';
import type { eventsBody } from '../../src/viewing/view-events.schemas';

// The viewer API's payloads, derived from the server's schemas so that a renamed field breaks the type
// check rather than viewers. Type-only: nothing of the server reaches the bundle. This is the one file
// that names the server's viewer schemas, so a move on the server side is a one-line change here.

export type ViewerState = z.output<typeof viewerStateSchema>;

type DemoPayload = z.output<typeof viewerDemoSchema>;
type StepPayload = DemoPayload['steps'][number];

export type Hotspot = StepPayload['hotspots'][number];
export type Step = StepPayload;
export type PlayableDemo = DemoPayload;
export type Configuration = DemoPayload['configuration'];

/** One viewing event as the player sends it (the request body's shape, before the server's defaults). */
export type TrackedEvent = z.input<typeof eventsBody>['events'][number];
