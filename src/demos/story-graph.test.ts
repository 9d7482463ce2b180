import { describe, expect, it } from 'vitest';
import { type StoryInput, type StoryStep, storyProblems } from './story-graph';

type Button = { id: string; action: { type: string; target?: string | null } };
const step = (n: number, extra: Partial<StoryStep> & { buttons?: Button[] } = {}): StoryStep => {
  const { buttons, ...rest } = extra;
  return { id: `s${n}`, position: n, title: `T${n}`, kind: 'page', chapterId: null, content: { buttons: buttons ?? [] }, ...rest };
};
const story = (steps: StoryStep[], more: Partial<StoryInput> = {}): StoryInput => ({ steps, hotspots: [], chapters: [], navigation: true, ...more });
const codes = (input: StoryInput) => storyProblems(input).map((p) => `${p.code}:${p.step_number ?? '-'}`);

describe('storyProblems', () => {
  it('finds nothing wrong with a linear demo, with or without hotspots and navigation', () => {
    const steps = [step(1), step(2), step(3)];
    expect(storyProblems(story(steps))).toEqual([]);
    const hotspots = steps.map((s) => ({ id: `h${s.position}`, stepId: s.id, actionType: 'next', actionTarget: null }));
    expect(storyProblems(story(steps, { hotspots, navigation: false }))).toEqual([]);
    expect(storyProblems(story([]))).toEqual([]);
  });

  it('names a step nothing leads to', () => {
    const steps = [step(1, { kind: 'cover', buttons: [{ id: 'go', action: { type: 'goto', target: 's3' } }] }), step(2), step(3)];
    const problems = storyProblems(story(steps, { navigation: false }));
    expect(problems).toEqual([
      { code: 'unreachable_step', step_number: 2, element_id: null, chapter_id: null, message: 'Step 2 (“T2”) cannot be reached from step 1: no action or Next leads to it' },
    ]);
  });

  it('follows hotspots when Next is off', () => {
    const steps = [step(1), step(2), step(3)];
    const hotspots = [
      { id: 'h1', stepId: 's1', actionType: 'goto', actionTarget: 's3' },
      { id: 'h3', stepId: 's3', actionType: 'end', actionTarget: null },
    ];
    expect(codes(story(steps, { hotspots, navigation: false }))).toEqual(['unreachable_step:2']);
    expect(codes(story(steps, { hotspots, navigation: true }))).toEqual([]);
  });

  it('reports actions aimed at deleted steps and chapters', () => {
    const steps = [
      step(1, { buttons: [{ id: 'gone', action: { type: 'goto', target: 'sX' } }, { id: 'chap', action: { type: 'chapter', target: 'chpX' } }] }),
      step(2),
    ];
    const hotspots = [{ id: 'h2', stepId: 's2', actionType: 'submit', actionTarget: 'sY' }];
    const problems = storyProblems(story(steps, { hotspots }));
    expect(problems.map((p) => [p.code, p.step_number, p.element_id])).toEqual([
      ['dangling_target', 1, 'gone'],
      ['dangling_target', 1, 'chap'],
      ['dangling_target', 2, 'h2'],
      ['submit_without_form', 2, 'h2'],
    ]);
    expect(problems[0]!.message).toBe('Step 1 (“T1”): the button “gone” goes to a step that no longer exists');
  });

  it('plays chapters from a menu and comes back to it; an empty chapter is a problem', () => {
    const chapters = [
      { id: 'a', position: 1, title: 'Alpha' },
      { id: 'b', position: 2, title: 'Beta' },
      { id: 'c', position: 3, title: 'Gamma' },
    ];
    const menu = step(1, {
      kind: 'chapter_menu',
      buttons: [
        { id: 'a', action: { type: 'chapter', target: 'a' } },
        { id: 'b', action: { type: 'chapter', target: 'b' } },
        { id: 'done', action: { type: 'end' } },
      ],
    });
    const steps = [menu, step(2, { chapterId: 'a' }), step(3, { chapterId: 'a' }), step(4, { chapterId: 'b' }), step(5, { kind: 'end' })];
    expect(codes(story(steps, { chapters, navigation: false }))).toEqual(['empty_chapter:-']);
    expect(storyProblems(story(steps, { chapters }))[0]!.message).toBe('Chapter “Gamma” has no steps');

    // Without the menu's way to the end, chapters loop back to it: no end is reachable.
    const noExit = [{ ...menu, content: { buttons: menu.content.buttons!.slice(0, 2) } }, ...steps.slice(1)];
    expect(codes(story(noExit, { chapters: chapters.slice(0, 2) }))).toEqual(['unreachable_step:5', 'no_end:-']);
  });

  it('knows a form goes on by its submit, and that a form step without a form cannot', () => {
    const form = { skippable: false };
    expect(codes(story([step(1, { kind: 'form', content: { buttons: [], form } }), step(2, { kind: 'end' })], { navigation: false }))).toEqual([]);
    expect(codes(story([step(1, { kind: 'form', content: { buttons: [] } }), step(2)]))).toEqual(['form_without_submit:1', 'unreachable_step:2', 'no_end:-']);
    // The submit button's target is where the form leads.
    const toThree = { kind: 'form' as const, content: { buttons: [{ id: 's', action: { type: 'submit', target: 's3' } }], form } };
    expect(codes(story([step(1, toThree), step(2, { kind: 'end' }), step(3)], { navigation: false }))).toEqual(['unreachable_step:2']);
  });

  it('names a submit on a step that has no form: the player would send nothing', () => {
    const send = { id: 'send', action: { type: 'submit', target: null } };
    expect(codes(story([step(1, { buttons: [send] }), step(2, { kind: 'end' })]))).toEqual(['submit_without_form:1']);
    expect(storyProblems(story([step(1, { buttons: [send] }), step(2, { kind: 'end' })]))[0]!.message).toBe(
      'Step 1 (“T1”): the button “send” sends a form, but this step has none',
    );
    // On a form step with its form, the same button is the form's way on.
    const form = { kind: 'form' as const, content: { buttons: [send], form: { skippable: false } } };
    expect(codes(story([step(1, form), step(2, { kind: 'end' })], { navigation: false }))).toEqual([]);
  });

  it('counts an end reached by restart loops as no end', () => {
    const steps = [step(1, { kind: 'chapter_menu', buttons: [{ id: 'r', action: { type: 'restart' } }] }), step(2)];
    expect(codes(story(steps))).toEqual(['unreachable_step:2', 'no_end:-']);
  });
});
