import { describe, expect, it } from 'vitest';
import { edgeRoute, LAYOUT_GAP_X, layoutFlow, type LayoutEdge, type LayoutNode } from '../web/src/pages/demos/flow-layout';
import { buildStory, type StoryInput } from '../web/src/pages/demos/flow-story';

const box = (id: string, height = 100): LayoutNode => ({ id, width: 200, height });
const chain = (...ids: string[]): LayoutEdge[] => ids.slice(1).map((to, i) => ({ from: ids[i]!, to }));

/** No two nodes of one layer overlap, and every layer lies below the one before (one expect: fast over many layouts). */
function wellPlaced(layout: ReturnType<typeof layoutFlow>) {
  const placed = [...layout.nodes.values()];
  const wrong: string[] = [];
  for (const a of placed) {
    for (const b of placed) {
      if (a !== b && a.layer === b.layer && Math.abs(a.x - b.x) < a.width + LAYOUT_GAP_X - 1) wrong.push(`${a.id} and ${b.id} overlap`);
      if (b.layer > a.layer && b.y <= a.y + a.height) wrong.push(`${b.id} is not below ${a.id}`);
    }
    if (a.x < 0 || a.x + a.width > layout.width || a.y + a.height > layout.height) wrong.push(`${a.id} is outside the picture`);
  }
  expect(wrong).toEqual([]);
}

/** A small deterministic pseudo-random source (no flaky layouts in the tests either). */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

describe('the flow layout', () => {
  it('draws a linear demo as one straight column, in step order', () => {
    const layout = layoutFlow(['a', 'b', 'c', 'd'].map((id) => box(id)), chain('a', 'b', 'c', 'd'));
    const placed = ['a', 'b', 'c', 'd'].map((id) => layout.nodes.get(id)!);
    expect(placed.map((p) => p.layer)).toEqual([0, 1, 2, 3]);
    expect(new Set(placed.map((p) => p.x)).size).toBe(1);
    expect(placed.map((p) => p.y)).toEqual([...placed.map((p) => p.y)].sort((a, b) => a - b));
    expect(layout.backEdges.size).toBe(0);
    wellPlaced(layout);
  });

  it('fans a chapter menu out into one layer and joins the branches again below the longest one', () => {
    // 1 → menu 2 → chapters at 3, 5, 7 (3 → 4, 5 → 6, 7), all back to the end at 8.
    const edges = [...chain('1', '2'), { from: '2', to: '3' }, { from: '2', to: '5' }, { from: '2', to: '7' }, ...chain('3', '4', '8'), ...chain('5', '6', '8'), { from: '7', to: '8' }];
    const layout = layoutFlow(['1', '2', '3', '4', '5', '6', '7', '8'].map((id) => box(id)), edges);
    const at = (id: string) => layout.nodes.get(id)!;
    expect([at('3').layer, at('5').layer, at('7').layer]).toEqual([2, 2, 2]);
    expect(at('8').layer).toBe(4);
    // The branches are left to right in step order, centred under the menu.
    expect(at('3').x).toBeLessThan(at('5').x);
    expect(at('5').x).toBeLessThan(at('7').x);
    expect(at('5').x).toBe(at('2').x);
    // A chapter's steps stay in its column.
    expect(at('4').x).toBe(at('3').x);
    wellPlaced(layout);
  });

  it('leaves loops out of the layering (restart, go back) and reports them as edges to route around', () => {
    const edges = [...chain('a', 'b', 'c'), { from: 'c', to: 'a' }, { from: 'c', to: 'b' }];
    const layout = layoutFlow([box('a'), box('b'), box('c')], edges);
    expect([...layout.backEdges].sort()).toEqual(['c->a', 'c->b']);
    expect(['a', 'b', 'c'].map((id) => layout.nodes.get(id)!.layer)).toEqual([0, 1, 2]);
  });

  it('puts a step nothing leads to where the author put it, below the step before it', () => {
    // b → d skips c: c is unreachable but still leads to d.
    const layout = layoutFlow(['a', 'b', 'c', 'd'].map((id) => box(id)), [...chain('a', 'b'), { from: 'b', to: 'd' }, { from: 'c', to: 'd' }]);
    const at = (id: string) => layout.nodes.get(id)!;
    expect(at('c').layer).toBe(at('b').layer + 1);
    expect(at('d').layer).toBe(at('c').layer + 1);
    wellPlaced(layout);
  });

  it('gives each layer the height of its tallest node', () => {
    const layout = layoutFlow([box('a', 300), box('b', 100), box('c', 100)], [{ from: 'a', to: 'b' }, { from: 'a', to: 'c' }]);
    expect(layout.nodes.get('b')!.y).toBeGreaterThan(layout.nodes.get('a')!.y + 300);
    wellPlaced(layout);
  });

  it('is deterministic and never overlaps, on 200 random stories', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const next = random(seed);
      const count = 1 + Math.floor(next() * 25);
      const nodes = Array.from({ length: count }, (_, i) => box(`s${i}`, 80 + Math.floor(next() * 5) * 22));
      const edges: LayoutEdge[] = [];
      for (let i = 0; i < count; i++) {
        if (i + 1 < count && next() < 0.7) edges.push({ from: `s${i}`, to: `s${i + 1}` });
        if (next() < 0.4) edges.push({ from: `s${i}`, to: `s${Math.floor(next() * count)}` });
        // Ghost targets (a deleted step) are ignored, not placed.
        if (next() < 0.05) edges.push({ from: `s${i}`, to: 'gone' });
      }
      const first = layoutFlow(nodes, edges);
      const again = layoutFlow(nodes, edges);
      expect([...again.nodes.values()]).toEqual([...first.nodes.values()]);
      expect(first.nodes.size).toBe(count);
      wellPlaced(first);
      // Every edge kept in the layering points down.
      for (const e of edges) {
        if (e.to === 'gone' || e.from === e.to || first.backEdges.has(`${e.from}->${e.to}`)) continue;
        expect(first.nodes.get(e.to)!.layer, `${e.from}->${e.to} (seed ${seed})`).toBeGreaterThan(first.nodes.get(e.from)!.layer);
      }
    }
  });

  it('routes a downward arrow into the target’s top and a loop into its right side', () => {
    const layout = layoutFlow([box('a'), box('b')], [...chain('a', 'b'), { from: 'b', to: 'a' }]);
    const a = layout.nodes.get('a')!;
    const b = layout.nodes.get('b')!;
    const down = edgeRoute({ x: a.x + a.width, y: a.y + 50 }, a, b);
    expect(down.end).toEqual({ x: b.x + b.width / 2, y: b.y });
    const up = edgeRoute({ x: b.x + b.width, y: b.y + 50 }, b, a);
    expect(up.end.x).toBe(a.x + a.width);
    expect(up.d).toMatch(/^M[\d.]+,[\d.]+ C/);
    // An arrow past a layer goes around the nodes in between, right of them.
    const long = layoutFlow([box('a'), box('b'), box('c')], [...chain('a', 'b', 'c'), { from: 'a', to: 'c' }]);
    const [la, lb, lc] = ['a', 'b', 'c'].map((id) => long.nodes.get(id)!);
    const skip = edgeRoute({ x: la!.x + la!.width, y: la!.y + 50 }, la!, lc!, { clearX: lb!.x + lb!.width });
    expect(skip.end.x).toBe(lc!.x + lc!.width);
    expect(skip.mid.x).toBeGreaterThan(lb!.x + lb!.width);
  });
});

describe('the story as a graph', () => {
  const step = (number: number, extra: Partial<StoryInput['steps'][number]> = {}) => ({
    id: `step_${number}`,
    number,
    title: `Step ${number}`,
    image_url: null,
    ...extra,
  });

  it('draws the player’s Next on pages and covers while the demo shows it, whatever their hotspots do', () => {
    const input = {
      steps: [step(1), step(2), step(3, { kind: 'chapter_menu' as const })],
      hotspots: [{ id: 'hs_a', step_id: 'step_1', label: 'Pricing', action: { type: 'goto', target: 3 } }],
    };
    const on = buildStory({ ...input, configuration: { navigation: { buttons: true, keyboard: false } } });
    expect(on.edges.filter((e) => e.implicit).map((e) => e.from)).toEqual(['step_1', 'step_2']);
    const off = buildStory({ ...input, configuration: { navigation: { buttons: false, keyboard: false } } });
    expect(off.edges.filter((e) => e.implicit).map((e) => e.from)).toEqual(['step_2']);
    expect(off.nodes[1]!.unreachable).toBe(true);
  });

  it('reads a linear demo as implicit "next" arrows and nothing unreachable', () => {
    const story = buildStory({ steps: [step(1), step(2), step(3)], hotspots: [{ id: 'hs_1', step_id: 'step_1', label: 'Go', action: { type: 'next', target: null } }] });
    expect(story.edges.map((e) => [e.from, e.to, e.implicit])).toEqual([
      ['step_1', 'step_2', true],
      ['step_2', 'step_3', true],
    ]);
    expect(story.nodes.every((n) => !n.unreachable)).toBe(true);
  });

  it('draws a branch from its element, and the step it skips as unreachable (worked out without story_problems)', () => {
    const story = buildStory({
      steps: [step(1), step(2), step(3), step(4, { kind: 'end', content: { buttons: [{ id: 'site', label: 'Visit', action: { type: 'url', target: 'https://acme.com' } }] } })],
      hotspots: [
        { id: 'hs_a', step_id: 'step_1', label: 'Pricing', action: { type: 'goto', target: 3 } },
        { id: 'hs_b', step_id: 'step_3', label: 'Broken', action: { type: 'goto', target: 9 } },
        { id: 'hs_c', step_id: 'step_3', label: 'Finish', action: { type: 'end', target: null } },
      ],
    });
    const edge = (id: string) => story.edges.find((e) => e.element?.id === id)!;
    expect(edge('hs_a')).toMatchObject({ from: 'step_1', to: 'step_3', label: 'Pricing', implicit: false, broken: false });
    expect(edge('hs_b')).toMatchObject({ to: null, broken: true });
    expect(edge('hs_c')).toMatchObject({ to: 'step_4' });
    expect(edge('site')).toMatchObject({ to: null, outbound: { kind: 'url', text: 'https://acme.com' } });
    // Step 1's only element branches: no implicit next from it; an end step has none either.
    expect(story.edges.filter((e) => e.implicit).map((e) => e.from)).toEqual(['step_2']);
    expect(story.nodes.filter((n) => n.unreachable).map((n) => n.number)).toEqual([2]);
    expect(story.nodes[2]!.problems.join(' ')).toMatch(/Broken/);
  });

  it('sends a chapter’s last step back to the chapter menu that offers it, so chapters are branches, not a line', () => {
    const chapter = (id: string) => ({ type: 'chapter', target: id });
    const story = buildStory({
      steps: [
        step(1, { kind: 'chapter_menu', content: { buttons: [{ id: 'a', label: 'A', action: chapter('chp_a') }, { id: 'b', label: 'B', action: chapter('chp_b') }, { id: 'done', label: 'Done', action: { type: 'end' } }] } }),
        step(2, { chapter_id: 'chp_a' }),
        step(3, { chapter_id: 'chp_a' }),
        step(4, { chapter_id: 'chp_b' }),
        step(5, { kind: 'end' }),
      ],
      hotspots: [],
      chapters: [
        { id: 'chp_a', title: 'A', first_step: 2 },
        { id: 'chp_b', title: 'B', first_step: 4 },
      ],
    });
    expect(story.edges.filter((e) => e.implicit).map((e) => `${e.from}->${e.to}`)).toEqual(['step_2->step_3', 'step_3->step_1', 'step_4->step_1']);
    expect(story.nodes.every((n) => !n.unreachable)).toBe(true);
    const layout = layoutFlow(
      story.nodes.map((n) => box(n.id)),
      story.edges.filter((e) => e.to).map((e) => ({ from: e.from, to: e.to! })),
    );
    // Both chapters start on the layer under the menu.
    expect(layout.nodes.get('step_2')!.layer).toBe(1);
    expect(layout.nodes.get('step_4')!.layer).toBe(1);
  });

  it('takes the server’s story_problems when the answer has them, and follows chapters to their first step', () => {
    const story = buildStory({
      steps: [step(1, { kind: 'chapter_menu', content: { buttons: [{ id: 'billing', label: 'Billing', action: { type: 'chapter', target: 'chp_1' } }] } }), step(2, { chapter_id: 'chp_1' }), step(3)],
      hotspots: [],
      chapters: [{ id: 'chp_1', title: 'Billing', first_step: 2 }],
      story_problems: [{ code: 'unreachable_step', message: 'Step 3 cannot be reached.', step_number: 3, element_id: null }],
    });
    expect(story.edges.find((e) => e.element?.id === 'billing')).toMatchObject({ to: 'step_2', type: 'chapter' });
    expect(story.nodes.map((n) => n.unreachable)).toEqual([false, false, true]);
    expect(story.nodes[2]!.problems).toEqual(['Step 3 cannot be reached.']);
    expect(story.chapters[0]).toMatchObject({ id: 'chp_1', title: 'Billing' });
  });
});
