// A deterministic layered layout for the flow view (top to bottom): the same story always gets the same
// picture, so an author's mental map survives a reload. Small and pure on purpose: a demo has tens of steps,
// not thousands, and a graph library would weigh more than the editor itself.
//
// 1. Back edges (loops: "restart", "go back") are found by a depth-first walk from the first node, in node
//    order, and left out of the layering.
// 2. Layers: longest path from the sources (Kahn's order, lowest index first), so an arrow points down. A node
//    nothing leads to (an unreachable step) goes one layer below the node before it in order, where the
//    author put it, rather than beside the first step.
// 3. Order within a layer: barycentre of the parents, ties (and nodes without parents, last) in node order.
// 4. x: each node under the mean of its parents, overlaps pushed apart, the layer shifted back by the mean
//    displacement; so a chain is a straight column and a branch fans out under its step.

export interface LayoutNode {
  id: string;
  width: number;
  height: number;
}
export interface LayoutEdge {
  from: string;
  to: string;
}
export interface PlacedNode {
  id: string;
  layer: number;
  x: number;
  y: number;
  width: number;
  height: number;
}
export interface Layout {
  nodes: Map<string, PlacedNode>;
  /** Edges left out of the layering: they point up (or sideways) and are routed around. */
  backEdges: Set<string>;
  width: number;
  height: number;
}

export const LAYOUT_GAP_X = 48;
export const LAYOUT_GAP_Y = 64;
export const LAYOUT_MARGIN = 24;
/** Room right of the nodes for arrows routed around (back edges) and outbound markers. */
export const LAYOUT_SIDE_ROOM = 140;

export const edgeKey = (e: LayoutEdge) => `${e.from}->${e.to}`;

export function layoutFlow(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Layout {
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const known = edges.filter((e) => index.has(e.from) && index.has(e.to) && e.from !== e.to);
  const out = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  for (const e of known) out.get(e.from)!.push(e.to);

  // 1. Back edges by a depth-first walk (iterative: no recursion limit on long demos).
  const backEdges = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  for (const root of nodes) {
    if (state.has(root.id)) continue;
    const stack: Array<{ id: string; next: number }> = [{ id: root.id, next: 0 }];
    state.set(root.id, 'open');
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      const targets = out.get(top.id)!;
      if (top.next >= targets.length) {
        state.set(top.id, 'done');
        stack.pop();
        continue;
      }
      const to = targets[top.next++]!;
      const seen = state.get(to);
      if (seen === 'open') backEdges.add(`${top.id}->${to}`);
      else if (!seen) {
        state.set(to, 'open');
        stack.push({ id: to, next: 0 });
      }
    }
  }
  const forward = known.filter((e) => !backEdges.has(edgeKey(e)));
  const preds = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  const succs = new Map<string, string[]>(nodes.map((n) => [n.id, []]));
  for (const e of forward) {
    if (!preds.get(e.to)!.includes(e.from)) preds.get(e.to)!.push(e.from);
    if (!succs.get(e.from)!.includes(e.to)) succs.get(e.from)!.push(e.to);
  }

  // 2. Longest-path layers in Kahn's order, lowest index first among the ready nodes.
  const layer = new Map<string, number>();
  const waiting = new Map(nodes.map((n) => [n.id, preds.get(n.id)!.length]));
  const ready = nodes.filter((n) => waiting.get(n.id) === 0).map((n) => n.id);
  while (ready.length) {
    ready.sort((a, b) => index.get(a)! - index.get(b)!);
    const id = ready.shift()!;
    const i = index.get(id)!;
    let l = 0;
    if (preds.get(id)!.length) l = Math.max(...preds.get(id)!.map((p) => layer.get(p)! + 1));
    else if (i > 0) {
      const before = nodes[i - 1]!.id;
      l = layer.has(before) ? layer.get(before)! + 1 : 0;
    }
    layer.set(id, l);
    for (const s of succs.get(id)!) {
      waiting.set(s, waiting.get(s)! - 1);
      if (waiting.get(s) === 0) ready.push(s);
    }
  }
  const layerCount = nodes.length ? Math.max(...layer.values()) + 1 : 0;
  const rows: string[][] = Array.from({ length: layerCount }, () => []);
  for (const n of nodes) rows[layer.get(n.id)!]!.push(n.id);

  // 3. Barycentre ordering, one sweep down: a node's place follows its parents' (up sweeps without dummy
  //    nodes for long edges reorder chapters by where they end, which reads worse). Ties in step order.
  const position = new Map<string, number>();
  for (const row of rows) {
    const keyed = row.map((id) => {
      const ps = preds.get(id)!.filter((p) => position.has(p));
      const key = ps.length ? ps.reduce((sum, p) => sum + position.get(p)!, 0) / ps.length : Number.POSITIVE_INFINITY;
      return { id, key, i: index.get(id)! };
    });
    keyed.sort((a, b) => (a.key === b.key ? 0 : a.key < b.key ? -1 : 1) || a.i - b.i);
    row.splice(0, row.length, ...keyed.map((k) => k.id));
    for (const [i, id] of row.entries()) position.set(id, i - (row.length - 1) / 2);
  }

  // 4. Coordinates.
  const size = new Map(nodes.map((n) => [n.id, n]));
  const x = new Map<string, number>();
  const y = new Map<string, number>();
  let top = 0;
  for (const row of rows) {
    const desired = row.map((id) => {
      const ps = preds.get(id)!.filter((p) => x.has(p));
      if (!ps.length) return null;
      return ps.reduce((sum, p) => sum + x.get(p)! + size.get(p)!.width / 2, 0) / ps.length - size.get(id)!.width / 2;
    });
    // Nodes without placed parents sit packed after the previous one (the first at 0).
    const placed: number[] = [];
    row.forEach((_, i) => {
      const min = i === 0 ? Number.NEGATIVE_INFINITY : placed[i - 1]! + size.get(row[i - 1]!)!.width + LAYOUT_GAP_X;
      const want = desired[i] ?? (i === 0 ? 0 : min);
      placed.push(Math.max(want, min));
    });
    const wanted = row.map((_, i) => desired[i]).filter((d): d is number => d !== null);
    if (wanted.length) {
      const shift = row.reduce((sum, _, i) => sum + (desired[i] === null ? 0 : placed[i]! - desired[i]!), 0) / wanted.length;
      for (let i = 0; i < placed.length; i++) placed[i]! -= shift;
    }
    row.forEach((id, i) => {
      x.set(id, placed[i]!);
      y.set(id, top);
    });
    top += Math.max(0, ...row.map((id) => size.get(id)!.height)) + LAYOUT_GAP_Y;
  }
  const minX = nodes.length ? Math.min(...nodes.map((n) => x.get(n.id)!)) : 0;
  const placedNodes = new Map<string, PlacedNode>();
  let right = 0;
  let bottom = 0;
  for (const n of nodes) {
    const px = Math.round(x.get(n.id)! - minX + LAYOUT_MARGIN);
    const py = Math.round(y.get(n.id)! + LAYOUT_MARGIN);
    placedNodes.set(n.id, { id: n.id, layer: layer.get(n.id)!, x: px, y: py, width: n.width, height: n.height });
    right = Math.max(right, px + n.width);
    bottom = Math.max(bottom, py + n.height);
  }
  return { nodes: placedNodes, backEdges, width: right + LAYOUT_SIDE_ROOM + LAYOUT_MARGIN, height: bottom + LAYOUT_MARGIN };
}

export interface Point {
  x: number;
  y: number;
}

/**
 * The SVG path of an arrow from `start` (a port on the source's right edge, or its bottom centre) to the
 * target box. Into the next layer down: into the target's top. Further down, up, or along the same layer:
 * out to the right of every node in between (`clearX`, the rightmost edge of the layers it passes), along a
 * lane (`lane` spreads such arrows so they do not run on one line), and into the target's right edge.
 * Also gives the label's place.
 */
export function edgeRoute(
  start: Point,
  fromBox: PlacedNode,
  to: PlacedNode,
  options: { lane?: number; fromSide?: boolean; clearX?: number } = {},
): { d: string; end: Point; mid: Point } {
  const { lane = 0, fromSide = true } = options;
  const c = (a: Point, b: Point, p: Point, q: Point, t: number): Point => {
    const u = 1 - t;
    return {
      x: u * u * u * a.x + 3 * u * u * t * b.x + 3 * u * t * t * p.x + t * t * t * q.x,
      y: u * u * u * a.y + 3 * u * u * t * b.y + 3 * u * t * t * p.y + t * t * t * q.y,
    };
  };
  const f = (n: number) => Math.round(n * 10) / 10;
  const path = (a: Point, b: Point, p: Point, q: Point) => ({
    d: `M${f(a.x)},${f(a.y)} C${f(b.x)},${f(b.y)} ${f(p.x)},${f(p.y)} ${f(q.x)},${f(q.y)}`,
    end: q,
    mid: c(a, b, p, q, 0.5),
  });
  if (to.layer === fromBox.layer + 1) {
    const end = { x: to.x + to.width / 2, y: to.y };
    const bottom = fromBox.y + fromBox.height;
    // From a port on the side: down along the node's edge first, so the arrow clears the rows below it.
    const first = fromSide ? { x: start.x + 28, y: bottom + 8 } : { x: start.x, y: start.y + Math.max(24, (end.y - start.y) / 2) };
    const last = { x: end.x, y: end.y - Math.max(24, (end.y - bottom) / 2) };
    const route = path(start, first, last, end);
    // The label sits in the gap between the layers, not on the rows of the node it leaves.
    const gap = (bottom + end.y) / 2;
    let best = route.mid;
    for (let t = 0; t <= 1; t += 0.02) {
      const p = c(start, first, last, end, t);
      if (Math.abs(p.y - gap) < Math.abs(best.y - gap)) best = p;
    }
    return { ...route, mid: best };
  }
  const end = { x: to.x + to.width, y: to.y + Math.min(28, to.height / 2) };
  const outer = Math.max(options.clearX ?? 0, fromBox.x + fromBox.width, to.x + to.width) + 36 + lane * 14;
  // A cubic's curve stays inside its control points: at `outer` they keep the arrow clear of the nodes.
  const down = end.y > start.y;
  return path(start, { x: outer + 12, y: start.y + (down ? 10 : -10) }, { x: outer + 12, y: end.y }, end);
}
