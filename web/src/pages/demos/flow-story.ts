// The story of a demo as the flow view draws it: steps as nodes, the actions of their hotspots and buttons as
// edges. Pure (no React, no DOM), so the graph the author sees is the graph the tests check.
// The input is structural: GET /v1/demos/:id's answer fits it, with or without the story fields.

/** An action as answers carry it: goto/submit targets are step numbers, chapter targets chapter ids. */
export interface StoryAction {
  type: string;
  target?: number | string | null;
}

export interface StoryInput {
  steps: ReadonlyArray<{
    id: string;
    number: number;
    title: string;
    kind?: string;
    chapter_id?: string | null;
    image_url: string | null;
    content?: { buttons?: ReadonlyArray<{ id: string; label: string; action: StoryAction }>; form?: { skippable?: boolean } | null } | null;
  }>;
  hotspots: ReadonlyArray<{ id: string; step_id: string; label: string; action: StoryAction }>;
  chapters?: ReadonlyArray<{ id: string; title: string; first_step: number | null }>;
  /** The player's Next (buttons or keyboard): with it, page and cover steps always go on. */
  configuration?: { navigation?: { buttons?: boolean; keyboard?: boolean } };
  story_problems?: ReadonlyArray<{ code: string; message: string; step_number: number | null; element_id: string | null }>;
}

export type ElementKind = 'hotspot' | 'button';

/** A hotspot or a button: what a viewer clicks, with the port a branch is drawn from. */
export interface FlowElement {
  id: string;
  kind: ElementKind;
  stepId: string;
  label: string;
  action: StoryAction;
}

export interface FlowNode {
  id: string;
  number: number;
  title: string;
  kind: string;
  chapterId: string | null;
  imageUrl: string | null;
  elements: FlowElement[];
  unreachable: boolean;
  /** The story problems of this step, in the server's words (or ours when the answer has none). */
  problems: string[];
}

/**
 * An arrow. `to` is a step id, or null when the action leaves the story (`outbound`: an address, another
 * demo, the end card, a restart) or points nowhere (`broken`). `implicit` is the step's "next": no
 * element of its own, drawn lighter.
 */
export interface FlowEdge {
  id: string;
  from: string;
  element: FlowElement | null;
  type: string;
  label: string;
  to: string | null;
  outbound: { kind: 'url' | 'demo' | 'end' | 'restart'; text: string } | null;
  broken: boolean;
  implicit: boolean;
}

export interface FlowStory {
  nodes: FlowNode[];
  edges: FlowEdge[];
  chapters: Array<{ id: string; title: string; color: string }>;
  /** Problems of the whole story, not of one step (an empty chapter, no way to the end). */
  problems: string[];
}

/** Chapter colours: distinct, readable on white, the same chapter keeps its colour between loads. */
// Not the accent (indigo), which marks what is selected or hovered.
export const CHAPTER_COLORS = ['#0e9384', '#dc6803', '#c11574', '#1570ef', '#669f2a', '#7a5af8', '#b42318', '#475467'];

/**
 * Where "next" leads from the step at `index`: the following step, except at a chapter's last step, which
 * goes back to the chapter menu that offers the chapter (as the player does); null after the last step.
 */
export function nextOf(story: StoryInput, index: number): string | null {
  const step = story.steps[index];
  const following = story.steps[index + 1];
  if (step?.chapter_id && following?.chapter_id !== step.chapter_id) {
    const menu = story.steps.find(
      (s) => s.kind === 'chapter_menu' && (s.content?.buttons ?? []).some((b) => b.action.type === 'chapter' && b.action.target === step.chapter_id),
    );
    if (menu) return menu.id;
  }
  return following?.id ?? null;
}

/**
 * Whether a step has the implicit "next" arrow, by the player's rules (as the server's story-graph.ts):
 * a page or cover goes on by the player's Next when it is shown (or when it has no element at all), a form
 * when nothing on it submits or it may be skipped, any step by an element whose action is next; an end
 * step never.
 */
function goesOnByNext(kind: string, elements: readonly FlowElement[], form: { skippable?: boolean } | null, navigation: boolean): boolean {
  if (kind === 'end') return false;
  if (elements.some((e) => e.action.type === 'next')) return true;
  if (kind === 'page' || kind === 'cover') return navigation || elements.length === 0;
  if (kind === 'form') return !!form && (!elements.some((e) => e.action.type === 'submit') || !!form.skippable);
  return false;
}

/** Where an element's action leads; step ids are resolved from the numbers answers carry. */
function resolve(
  action: StoryAction,
  stepIndex: number,
  story: StoryInput,
  byNumber: ReadonlyMap<number, string>,
): Pick<FlowEdge, 'to' | 'outbound' | 'broken'> {
  const steps = story.steps;
  const following = steps[stepIndex + 1]?.id ?? null;
  const stepOf = (target: StoryAction['target']) => {
    if (typeof target === 'number') return byNumber.get(target) ?? null;
    if (typeof target === 'string') return steps.find((s) => s.id === target)?.id ?? null;
    return null;
  };
  const none = { to: null, outbound: null, broken: false };
  switch (action.type) {
    case 'next': {
      const to = nextOf(story, stepIndex);
      return to ? { ...none, to } : { ...none, outbound: { kind: 'end', text: 'End' } };
    }
    case 'goto': {
      const to = stepOf(action.target);
      return to ? { ...none, to } : { ...none, broken: true };
    }
    case 'submit': {
      if (action.target === null || action.target === undefined) {
        return following ? { ...none, to: following } : { ...none, outbound: { kind: 'end', text: 'End' } };
      }
      const to = stepOf(action.target);
      return to ? { ...none, to } : { ...none, broken: true };
    }
    case 'chapter': {
      const chapter = story.chapters?.find((c) => c.id === action.target);
      const to = chapter?.first_step ? (byNumber.get(chapter.first_step) ?? null) : null;
      return to ? { ...none, to } : { ...none, broken: true };
    }
    case 'end': {
      const endStep = steps.slice(stepIndex + 1).find((s) => s.kind === 'end');
      return endStep ? { ...none, to: endStep.id } : { ...none, outbound: { kind: 'end', text: 'End' } };
    }
    case 'restart':
      return { ...none, outbound: { kind: 'restart', text: 'Restart' } };
    case 'url':
    case 'demo':
      return { ...none, outbound: { kind: action.type, text: typeof action.target === 'string' ? action.target : '' } };
    default:
      return { ...none, broken: true };
  }
}

/** The steps reached from the first one, following the edges. */
export function reachable(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): Set<string> {
  const seen = new Set<string>();
  const first = nodes[0];
  if (!first) return seen;
  const out = new Map<string, string[]>();
  for (const e of edges) if (e.to) out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
  const queue = [first.id];
  seen.add(first.id);
  while (queue.length) {
    const id = queue.shift()!;
    for (const to of out.get(id) ?? []) {
      if (!seen.has(to)) {
        seen.add(to);
        queue.push(to);
      }
    }
  }
  return seen;
}

/**
 * Nodes and edges of a demo. A step whose viewer can go on by "next" (goesOnByNext) gets one implicit edge
 * to the following step, or back to its chapter menu at a chapter's end. Unreachable
 * steps and dangling targets come from the answer's `story_problems` when it has them; otherwise they are
 * worked out here the same way (reachable from step 1; a target that is no step or chapter).
 */
export function buildStory(story: StoryInput): FlowStory {
  const byNumber = new Map(story.steps.map((s) => [s.number, s.id]));
  const navigation = !!(story.configuration?.navigation?.buttons || story.configuration?.navigation?.keyboard);
  const chapterIds = (story.chapters ?? []).map((c) => c.id);
  const nodes: FlowNode[] = [];
  const edges: FlowEdge[] = [];
  story.steps.forEach((step, index) => {
    const elements: FlowElement[] = [
      ...story.hotspots
        .filter((h) => h.step_id === step.id)
        .map((h) => ({ id: h.id, kind: 'hotspot' as const, stepId: step.id, label: h.label, action: h.action })),
      ...(step.content?.buttons ?? []).map((b) => ({ id: b.id, kind: 'button' as const, stepId: step.id, label: b.label, action: b.action })),
    ];
    const kind = step.kind ?? 'page';
    nodes.push({
      id: step.id,
      number: step.number,
      title: step.title,
      kind,
      chapterId: step.chapter_id ?? null,
      imageUrl: step.image_url,
      elements,
      unreachable: false,
      problems: [],
    });
    for (const element of elements) {
      if (element.action.type === 'next') continue;
      edges.push({
        id: `${step.id}:${element.id}`,
        from: step.id,
        element,
        type: element.action.type,
        label: element.label || (element.kind === 'hotspot' ? 'Hotspot' : 'Button'),
        implicit: false,
        ...resolve(element.action, index, story, byNumber),
      });
    }
    const goesOn = goesOnByNext(kind, elements, step.content?.form ?? null, navigation);
    const to = goesOn ? nextOf(story, index) : null;
    if (to) edges.push({ id: `${step.id}:next`, from: step.id, element: null, type: 'next', label: '', to, outbound: null, broken: false, implicit: true });
  });

  const general: string[] = [];
  if (story.story_problems) {
    const nodeOf = new Map(nodes.map((n) => [n.number, n]));
    for (const p of story.story_problems) {
      const node = p.step_number === null ? undefined : nodeOf.get(p.step_number);
      if (!node) {
        general.push(p.message);
        continue;
      }
      node.problems.push(p.message);
      if (p.code === 'unreachable_step') node.unreachable = true;
      if (p.code === 'dangling_target' && p.element_id) {
        for (const e of edges) if (e.from === node.id && e.element?.id === p.element_id) e.broken = true;
      }
    }
  } else {
    const seen = reachable(nodes, edges);
    for (const node of nodes) {
      if (!seen.has(node.id)) {
        node.unreachable = true;
        node.problems.push(`Step ${node.number} cannot be reached from step 1.`);
      }
    }
    for (const e of edges) {
      if (e.broken) nodes.find((n) => n.id === e.from)?.problems.push(`“${e.label}” goes to a step or chapter that does not exist.`);
    }
  }

  const chapters = (story.chapters ?? []).map((c) => ({ id: c.id, title: c.title, color: CHAPTER_COLORS[chapterIds.indexOf(c.id) % CHAPTER_COLORS.length]! }));
  return { nodes, edges, chapters, problems: general };
}

/** What an action says in a menu or a label: "Step 4", "Chapter Reporting", "https://…". */
export function describeAction(action: StoryAction, story: FlowStory, input: Pick<StoryInput, 'chapters'>): string {
  const stepTitle = (target: StoryAction['target']) => {
    const node = story.nodes.find((n) => n.number === target || n.id === target);
    return node ? `step ${node.number}` : 'a missing step';
  };
  switch (action.type) {
    case 'next':
      return 'the next step';
    case 'goto':
      return stepTitle(action.target);
    case 'submit':
      return action.target ? `sends the form, then ${stepTitle(action.target)}` : 'sends the form, then the next step';
    case 'chapter': {
      const chapter = input.chapters?.find((c) => c.id === action.target);
      return chapter ? `chapter “${chapter.title}”` : 'a missing chapter';
    }
    case 'end':
      return 'the end';
    case 'restart':
      return 'step 1 (restart)';
    case 'url':
      return `opens ${String(action.target ?? '')}`;
    case 'demo':
      return `another demo (${String(action.target ?? '')})`;
    default:
      return action.type;
  }
}
