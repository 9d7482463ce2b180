// The story of a demo as the editor reads it: step kinds, buttons, forms, chapters and problems, with the
// defaults of a demo written before them (a step without `kind` is a page, without `content` has no buttons).
import type { Chapter, DemoDetail, Hotspot, Step, StepContent, StepKind, StepStory, StoryAction, StoryButton, StoryForm, StoryProblem } from '../../api/types';

export const KIND_NAMES: Record<StepKind, string> = {
  page: 'Page',
  cover: 'Cover',
  chapter_menu: 'Chapter menu',
  form: 'Form',
  end: 'End screen',
};

/** A step's story fields, defaults filled in. */
export function storyOf(step: Step): StepStory {
  const s = step as Step & Partial<StepStory>;
  return {
    kind: s.kind ?? 'page',
    chapter_id: s.chapter_id ?? null,
    content: { buttons: s.content?.buttons ?? [], ...(s.content?.form ? { form: s.content.form } : {}) },
    description_html: s.description_html ?? null,
  };
}

export const chaptersOf = (demo: DemoDetail): Chapter[] => (demo as DemoDetail & { chapters?: Chapter[] }).chapters ?? [];
export const problemsOf = (demo: DemoDetail): StoryProblem[] => (demo as DemoDetail & { story_problems?: StoryProblem[] }).story_problems ?? [];
export const tooltipHtmlOf = (h: Hotspot): string | null => (h as Hotspot & { tooltip_html?: string | null }).tooltip_html ?? null;
export const actionOf = (h: Hotspot): StoryAction => h.action as StoryAction;

/** A button id not yet used on the step (ids are stable: clicks per call to action are counted by them). */
export function newButtonId(buttons: StoryButton[], base = 'button'): string {
  const slug =
    base
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 30) || 'button';
  const used = new Set(buttons.map((b) => b.id));
  if (!used.has(slug)) return slug;
  for (let i = 2; ; i++) if (!used.has(`${slug}-${i}`)) return `${slug}-${i}`;
}

export const DEFAULT_FORM: StoryForm = {
  fields: [
    { name: 'name', label: 'Name', type: 'text', required: true },
    { name: 'email', label: 'Work e-mail', type: 'email', required: true },
  ],
  submit_label: 'Continue',
  gate: false,
  skippable: false,
};

/** What a new step of each kind starts with, so it shows something sensible at once. */
export function newStepOf(kind: StepKind, chapters: Chapter[], demoTitle: string): { title: string; description?: string; kind: StepKind; content?: StepContent } {
  switch (kind) {
    case 'cover':
      return {
        kind,
        title: demoTitle || 'Welcome',
        description: 'See how it works in two minutes.',
        content: { buttons: [{ id: 'start', label: 'Start the demo', style: 'primary', action: { type: 'next', target: null } }] },
      };
    case 'chapter_menu':
      return { kind, title: 'What would you like to see?', content: { buttons: chapterButtons(chapters) } };
    case 'form':
      return { kind, title: 'Tell us about you', description: 'So we can send you the details.', content: { buttons: [], form: DEFAULT_FORM } };
    case 'end':
      return {
        kind,
        title: 'Ready to try it?',
        description: 'Start for free, or talk to us.',
        content: {
          buttons: [
            { id: 'sign-up', label: 'Sign up', style: 'primary', cta: 'sign_up', action: { type: 'url', target: 'https://example.com/signup' } },
            { id: 'restart', label: 'Watch again', style: 'secondary', cta: 'restart', action: { type: 'restart', target: null } },
          ],
        },
      };
    default:
      return { kind: 'page', title: 'New step' };
  }
}

/** A chapter menu's buttons: one per chapter, in the chapters' order. */
export function chapterButtons(chapters: Chapter[]): StoryButton[] {
  const buttons: StoryButton[] = [];
  for (const chapter of chapters.slice(0, 8)) {
    buttons.push({
      id: newButtonId(buttons, chapter.title || 'chapter'),
      label: chapter.title || 'Chapter',
      ...(chapter.description ? { description: chapter.description.slice(0, 300) } : {}),
      style: 'secondary',
      action: { type: 'chapter', target: chapter.id },
    });
  }
  return buttons;
}

/** `{{name|fallback}}` as the player shows it to a viewer with no value: the fallback (or nothing). */
export function withFallbacks(text: string): string {
  return text.replace(/\{\{\s*([a-z][a-z0-9_]{0,39})\s*(?:\|([^{}]*))?\}\}/g, (_m, _name: string, fallback?: string) => (fallback ?? '').trim());
}

/** An action in a few words, for lists and the canvas. */
export function describeAction(action: StoryAction, steps: Step[], chapters: Chapter[]): string {
  switch (action.type) {
    case 'next':
      return 'Next step';
    case 'goto': {
      const step = steps.find((s) => s.number === action.target || s.id === action.target);
      return step ? `Go to step ${step.number}` : 'Go to a step (none chosen)';
    }
    case 'chapter': {
      const chapter = chapters.find((c) => c.id === action.target);
      return chapter ? `Chapter “${chapter.title}”` : 'Go to a chapter (none chosen)';
    }
    case 'url':
      return `Open ${action.target ?? 'a link'}`;
    case 'submit':
      return 'Submit the form';
    case 'end':
      return 'End the demo';
    case 'restart':
      return 'Restart';
    case 'demo':
      return `Play ${action.target ?? 'another demo'}`;
  }
}

/** Whether `text` is an http(s) address (what the API accepts for `url` and `demo` targets). */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
  } catch {
    return false;
  }
}
