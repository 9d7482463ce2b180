import type { z } from 'zod';
import type { accountSessionSchema } from '../../../src/accounts/account.schemas';
import type { invitationPreviewSchema, sessionSchema, signupPolicySchema, userSchema } from '../../../src/accounts/accounts.schemas';
import type { apiKeySchema, createdKeySchema } from '../../../src/api-keys/api-keys.schemas';
import type { configurationSchema } from '../../../src/demos/demo-configuration.schemas';
import type { demoVersionSchema } from '../../../src/demos/demo-versions.schemas';
import type { createDemoBody, demoDetailSchema, demoSchema } from '../../../src/demos/demos.schemas';
import type { hotspotSchema, patchHotspotBody } from '../../../src/demos/hotspots.schemas';
import type { stepSchema } from '../../../src/demos/steps.schemas';
import type { actionSchema, buttonSchema, formFieldSchema, formSchema, StepKind } from '../../../src/demos/story.schemas';
import type { authorizationSchema, consentSchema, createdAppSchema, oauthAppSchema } from '../../../src/oauth/oauth.schemas';
import type { memberSchema } from '../../../src/team/team.schemas';

// The wire types come from the server's response schemas (type-only: nothing of the server is bundled),
// so a renamed field breaks the web app's type check instead of its users.
export type Session = z.output<typeof sessionSchema>;
export type InvitationPreview = z.output<typeof invitationPreviewSchema>;
export type SignupPolicy = z.output<typeof signupPolicySchema>;
export type User = z.output<typeof userSchema>;
export type AccountSession = z.output<typeof accountSessionSchema>;
export type ApiKey = z.output<typeof apiKeySchema>;
export type CreatedApiKey = z.output<typeof createdKeySchema>;
export type Member = z.output<typeof memberSchema>;
export type { Permission, Role, Scope } from '../../../src/auth/permissions';
export type OAuthApp = z.output<typeof oauthAppSchema>;
export type CreatedOAuthApp = z.output<typeof createdAppSchema>;
export type OAuthConsent = z.output<typeof consentSchema>;
export type OAuthAuthorization = z.output<typeof authorizationSchema>;

export type Demo = z.output<typeof demoSchema>;
export type DemoDetail = z.output<typeof demoDetailSchema>;
export type DemoVersion = z.output<typeof demoVersionSchema>;
export type Step = z.output<typeof stepSchema>;
export type Hotspot = z.output<typeof hotspotSchema>;
/** A hotspot's fields as the editor sends them (a new one gives its whole box). */
export type HotspotInput = z.input<typeof patchHotspotBody>;
export type DemoConfiguration = z.output<typeof configurationSchema>;
export type DemoStatus = Demo['status'];
/** How a generation captures its page (POST /v1/demos `capture_mode`). */
export type CaptureModeChoice = NonNullable<z.input<typeof createDemoBody>['capture_mode']>;

// The story (issue 29): step kinds, buttons, forms, chapters. Read through `storyOf` (pages/demos/story.ts),
// which gives the defaults of a step written before them.
export type { ActionType, StepKind } from '../../../src/demos/story.schemas';
export type StoryAction = z.output<typeof actionSchema>;
export type StoryButton = z.output<typeof buttonSchema>;
export type StoryForm = z.output<typeof formSchema>;
export type FormField = z.output<typeof formFieldSchema>;
export interface StepContent {
  buttons: StoryButton[];
  form?: StoryForm;
}
/** A step's story fields as GET /v1/demos/:id gives them. */
export interface StepStory {
  kind: StepKind;
  chapter_id: string | null;
  content: StepContent;
  description_html: string | null;
}
export interface Chapter {
  id: string;
  number: number;
  title: string;
  description: string;
  step_numbers: number[];
  first_step: number | null;
}
/** What stops a demo being published (unreachable steps, dangling targets...), step by step. */
export interface StoryProblem {
  code: string;
  message: string;
  step_number: number | null;
  element_id: string | null;
}
