import { Fragment, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent, useEffect, useMemo, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { assetPath } from '../../api/demos.api';
import { actionEntry, branchEntry, stableAction } from './flow-actions';
import { edgeRoute, layoutFlow, type Point } from './flow-layout';
import { buildStory, describeAction, type FlowEdge, type FlowElement, type FlowNode, type StoryAction, type StoryInput } from './flow-story';
import type { FlowViewProps } from './flow-view';

// Node geometry (SVG units = CSS pixels at 100%).
const NODE_W = 208;
const THUMB_TOP = 10;
const THUMB_H = 84;
const TITLE_Y = THUMB_TOP + THUMB_H + 20;
const ROWS_TOP = THUMB_TOP + THUMB_H + 32;
const ROW_H = 26;
const nodeHeight = (n: FlowNode) => ROWS_TOP + n.elements.length * ROW_H + (n.elements.length ? 6 : 0) + (n.unreachable ? 18 : 0);
const rowY = (i: number) => ROWS_TOP + i * ROW_H;
const ZOOMS = [0.4, 0.5, 0.67, 0.8, 1, 1.25, 1.5];

const KIND_WORDS: Record<string, string> = { page: 'Page', cover: 'Cover', chapter_menu: 'Chapter menu', form: 'Form', end: 'End' };
const KIND_ICONS: Record<string, string> = { page: '▭', cover: '★', chapter_menu: '☰', form: '✎', end: '⚑' };

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
const host = (address: string) => {
  try {
    return new URL(address).host;
  } catch {
    return address;
  }
};


type Drag = { element: FlowElement; start: Point; pointer: Point; over: string | null; mode: 'draw' | 'retarget' };

/** The story as a graph: steps as nodes, hotspots' and buttons' actions as arrows; branches drawn and retargeted by dragging or from a menu. */
export function FlowGraph({ demo, readOnly, perform, onOpenStep }: FlowViewProps) {
  const input: StoryInput = demo;
  const latest = useRef(input);
  latest.current = input;
  const story = useMemo(() => buildStory(input), [input]);
  const layout = useMemo(
    () =>
      layoutFlow(
        story.nodes.map((n) => ({ id: n.id, width: NODE_W, height: nodeHeight(n) })),
        story.edges.filter((e) => e.to).map((e) => ({ from: e.from, to: e.to! })),
      ),
    [story],
  );
  const nodeById = useMemo(() => new Map(story.nodes.map((n) => [n.id, n])), [story]);
  const chapterColor = useMemo(() => new Map(story.chapters.map((c) => [c.id, c.color])), [story]);

  // Zoom: "fit" follows the width of the view (never above 100%); a number is a chosen scale.
  const scroller = useRef<HTMLDivElement>(null);
  const svg = useRef<SVGSVGElement>(null);
  const [zoomChoice, setZoom] = useState<'fit' | number>('fit');
  const [viewWidth, setViewWidth] = useState(0);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const fitZoom = viewWidth ? Math.max(0.4, Math.min(1, (viewWidth - 2) / layout.width)) : 1;
  const zoom = zoomChoice === 'fit' ? fitZoom : zoomChoice;
  const stepZoom = (dir: 1 | -1) => {
    const next = dir > 0 ? ZOOMS.find((z) => z > zoom + 0.001) : [...ZOOMS].reverse().find((z) => z < zoom - 0.001);
    if (next) setZoom(next);
  };
  // Ctrl/Cmd + wheel (and a trackpad's pinch, which Chromium sends as one) zooms the graph, not the page.
  const zoomRef = useRef(zoom);
  zoomRef.current = zoom;
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      const next = Math.min(1.5, Math.max(0.4, zoomRef.current * (event.deltaY < 0 ? 1.1 : 1 / 1.1)));
      setZoom(Math.round(next * 100) / 100);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, []);

  const [selected, setSelected] = useState<{ stepId: string; elementId: string } | null>(null);
  const selectedElement = selected ? nodeById.get(selected.stepId)?.elements.find((e) => e.id === selected.elementId) ?? null : null;
  const [drag, setDragState] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const setDrag = (d: Drag | null) => {
    dragRef.current = d;
    setDragState(d);
  };
  const [announce, setAnnounce] = useState('');

  const toSvg = (clientX: number, clientY: number): Point => {
    const matrix = svg.current?.getScreenCTM();
    if (!matrix) return { x: 0, y: 0 };
    const p = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return { x: p.x, y: p.y };
  };
  /** The step under the pointer: its node, or one of its rows. */
  const nodeAt = (clientX: number, clientY: number) => {
    const hit = document.elementFromPoint(clientX, clientY)?.closest('[data-flow-node], [data-flow-row-of]') as SVGElement | null;
    return hit ? (hit.dataset.flowNode ?? hit.dataset.flowRowOf ?? null) : null;
  };

  const setBranch = (element: FlowElement, toStepId: string) => {
    const target = nodeById.get(toStepId);
    setAnnounce(`“${element.label || 'Element'}” of step ${nodeById.get(element.stepId)?.number} now goes to step ${target?.number}.`);
    void perform(branchEntry(demo.id, element, toStepId, () => latest.current));
  };
  const setAction = (element: FlowElement, after: StoryAction) => {
    const before = stableAction(element.action, latest.current);
    void perform(actionEntry(demo.id, element, before, after, () => latest.current));
  };

  const startDrag = (event: ReactPointerEvent, element: FlowElement, start: Point, mode: Drag['mode']) => {
    if (readOnly || event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    setDrag({ element, start, pointer: toSvg(event.clientX, event.clientY), over: null, mode });
  };
  const dragging = drag !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: follows the pointer while a drag lasts; the handlers read the latest state
  useEffect(() => {
    if (!dragging) return;
    const move = (event: PointerEvent) => {
      const d = dragRef.current;
      if (!d) return;
      const over = nodeAt(event.clientX, event.clientY);
      setDrag({ ...d, pointer: toSvg(event.clientX, event.clientY), over: over === d.element.stepId ? null : over });
      // Near an edge of the view, scroll it, so a far step can be reached in one drag.
      const el = scroller.current;
      if (!el) return;
      const r = el.getBoundingClientRect();
      const edge = 32;
      if (event.clientY > r.bottom - edge) el.scrollTop += 12;
      else if (event.clientY < r.top + edge) el.scrollTop -= 12;
      if (event.clientX > r.right - edge) el.scrollLeft += 12;
      else if (event.clientX < r.left + edge) el.scrollLeft -= 12;
    };
    const up = (event: PointerEvent) => {
      const d = dragRef.current;
      const over = nodeAt(event.clientX, event.clientY);
      setDrag(null);
      if (d && over && over !== d.element.stepId) setBranch(d.element, over);
    };
    const stop = () => setDrag(null);
    const cancel = (event: KeyboardEvent) => {
      if (event.key === 'Escape') stop();
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', stop);
    window.addEventListener('keydown', cancel);
    return () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', stop);
      window.removeEventListener('keydown', cancel);
    };
  }, [dragging]);

  const port = (node: FlowNode, i: number): Point => {
    const p = layout.nodes.get(node.id)!;
    return { x: p.x + p.width, y: p.y + rowY(i) + ROW_H / 2 };
  };
  const edgeStart = (e: FlowEdge): Point => {
    const node = nodeById.get(e.from)!;
    const p = layout.nodes.get(e.from)!;
    if (!e.element) return { x: p.x + p.width / 2, y: p.y + p.height };
    return port(node, node.elements.indexOf(e.element));
  };

  // Arrows routed around (loops) get lanes, so two of them do not run on one line.
  let lane = 0;
  const rightOfLayer = new Map<number, number>();
  for (const p of layout.nodes.values()) rightOfLayer.set(p.layer, Math.max(rightOfLayer.get(p.layer) ?? 0, p.x + p.width));
  const arrows = story.edges.map((e) => {
    const start = edgeStart(e);
    const fromBox = layout.nodes.get(e.from)!;
    if (e.to) {
      const toBox = layout.nodes.get(e.to)!;
      const around = toBox.layer !== fromBox.layer + 1;
      let clearX = 0;
      for (let l = Math.min(fromBox.layer, toBox.layer); l <= Math.max(fromBox.layer, toBox.layer); l++) clearX = Math.max(clearX, rightOfLayer.get(l) ?? 0);
      // A step's own "next" routed around leaves from its lower right corner, not from under it.
      const from = around && !e.element ? { x: fromBox.x + fromBox.width, y: fromBox.y + fromBox.height - 14 } : start;
      const route = edgeRoute(from, fromBox, toBox, { lane: around ? lane++ : 0, fromSide: e.element !== null || around, clearX });
      return { edge: e, start: from, ...route };
    }
    return { edge: e, start, d: '', end: { x: start.x + 26, y: start.y }, mid: start };
  });
  const problems = story.nodes.filter((n) => n.problems.length);
  const edgeClass = (edge: FlowEdge) => {
    const selectedEdge = !!edge.element && selected?.elementId === edge.element.id && selected.stepId === edge.from;
    const moving = drag?.mode === 'retarget' && drag.element === edge.element;
    return `flow-edge flow-edge-${edge.implicit ? 'next' : edge.type}${selectedEdge ? ' flow-edge-selected' : ''}${moving ? ' flow-edge-moving' : ''}`;
  };

  /** A row per hotspot or button of a node, with its port (drawn right after the node: Tab goes node, its rows, next node). */
  const rowsOf = (n: FlowNode) => {
    const p = layout.nodes.get(n.id)!;
    return n.elements.map((el, i) => {
      const y = p.y + rowY(i);
      const isSelected = selected?.stepId === n.id && selected.elementId === el.id;
      const summary = rowSummary(el, story.edges.find((e) => e.element === el), nodeById);
      return (
        // biome-ignore lint/a11y/useSemanticElements: an SVG row cannot be a <button>; it is focusable and answers Enter and Space
        <g
          key={el.id}
          className={`flow-row${isSelected ? ' flow-row-selected' : ''}`}
          role="button"
          tabIndex={0}
          aria-label={rowLabel(n, el)}
          aria-pressed={isSelected}
          data-flow-element={`${n.id}:${el.id}`}
          data-flow-row-of={n.id}
          onClick={(ev) => {
            ev.stopPropagation();
            setSelected(isSelected ? null : { stepId: n.id, elementId: el.id });
          }}
          onKeyDown={(ev) => rowKey(ev, n, el)}
        >
          <rect className="flow-row-bg" x={p.x + 6} y={y + 2} width={p.width - 12} height={ROW_H - 4} rx={5} />
          <text x={p.x + 14} y={y + ROW_H / 2 + 4} className="flow-row-label">
            <tspan className="flow-row-kind">{el.kind === 'hotspot' ? '◎' : '▢'}</tspan> {clip(el.label || 'unnamed', labelRoom(summary.text))}
          </text>
          <text x={p.x + p.width - 16} y={y + ROW_H / 2 + 4} textAnchor="end" className={`flow-row-target${summary.broken ? ' flow-row-broken' : ''}`}>
            {summary.text}
          </text>
          {readOnly ? null : (
            <g className="flow-port" data-flow-port={`${n.id}:${el.id}`} onPointerDown={(ev) => startDrag(ev, el, port(n, i), 'draw')}>
              <circle className="flow-port-hit" cx={p.x + p.width} cy={y + ROW_H / 2} r={13} />
              <circle className="flow-port-dot" cx={p.x + p.width} cy={y + ROW_H / 2} r={5.5} />
            </g>
          )}
        </g>
      );
    });
  };

  const rowLabel = (node: FlowNode, element: FlowElement) =>
    `${element.kind === 'hotspot' ? 'Hotspot' : 'Button'} “${element.label || 'unnamed'}” on step ${node.number}: ${describeAction(element.action, story, input)}`;
  const rowKey = (event: ReactKeyboardEvent, node: FlowNode, element: FlowElement) => {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    event.preventDefault();
    setSelected({ stepId: node.id, elementId: element.id });
    // The menu takes the focus: the keyboard's way to draw or retarget a branch.
    requestAnimationFrame(() => document.getElementById('flow-target')?.focus());
  };

  return (
    <section className="flow-view" aria-label="Flow of the demo">
      <div className="flow-toolbar" role="toolbar" aria-label="Flow">
        <span className="flow-hint">
          {readOnly
            ? 'Steps and where each hotspot and button leads.'
            : 'Drag from a ● to a step to branch, or an arrow’s end to another step. Or select a hotspot or button and choose where it goes.'}
        </span>
        <span className="spacer" />
        <span className="flow-zoom">
          <Button size="sm" variant="ghost" aria-label="Zoom the flow out" onClick={() => stepZoom(-1)}>
          −
        </Button>
        <span className="zoom-level" aria-live="polite">
          {Math.round(zoom * 100)}%
        </span>
        <Button size="sm" variant="ghost" aria-label="Zoom the flow in" onClick={() => stepZoom(1)}>
          +
        </Button>
        <Button size="sm" variant="ghost" aria-pressed={zoomChoice === 'fit'} aria-label="Fit the flow to the view" onClick={() => setZoom('fit')}>
          Fit
        </Button>
        </span>
      </div>

      {problems.length || story.problems.length ? (
        <div className="flow-problems" role="status">
          <strong>To fix before publishing:</strong>
          <ul>
            {story.problems.map((message) => (
              <li key={message}>{message}</li>
            ))}
            {problems.flatMap((n) =>
              n.problems.map((message, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a step's messages are fixed for this answer
                <li key={`${n.id}:${i}`}>
                  <button type="button" className="flow-problem-link" title={`Open step ${n.number} in the editor`} onClick={() => onOpenStep(n.id)}>
                    {message.startsWith(`Step ${n.number}`) ? message : `Step ${n.number}: ${message}`}
                  </button>
                </li>
              )),
            )}
          </ul>
        </div>
      ) : null}

      {selectedElement ? (
        <TargetMenu
          key={`${selectedElement.stepId}:${selectedElement.id}`}
          element={selectedElement}
          node={nodeById.get(selectedElement.stepId)!}
          nodes={story.nodes}
          chapters={input.chapters ?? []}
          readOnly={readOnly}
          describe={describeAction(selectedElement.action, story, input)}
          onPick={(after) => setAction(selectedElement, after)}
          onClose={() => setSelected(null)}
        />
      ) : null}

      {story.chapters.length ? (
        <ul className="flow-legend" aria-label="Chapters">
          {story.chapters.map((c) => (
            <li key={c.id}>
              <span className="flow-swatch" style={{ background: c.color }} />
              {c.title}
            </li>
          ))}
        </ul>
      ) : null}

      <div className={`flow-scroll${drag ? ' flow-dragging' : ''}`} ref={scroller}>
        {story.nodes.length === 0 ? (
          <p className="flow-empty">This demo has no steps yet.</p>
        ) : (
          // biome-ignore lint/a11y/useSemanticElements: the graph's SVG groups its focusable nodes and rows; a <fieldset> cannot hold SVG
          <svg
            ref={svg}
            className="flow-svg"
            width={Math.round(layout.width * zoom)}
            height={Math.round(layout.height * zoom)}
            viewBox={`0 0 ${layout.width} ${layout.height}`}
            role="group"
            aria-label={`${story.nodes.length} steps`}
          >
            <defs>
              <marker id="flow-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" className="flow-head" />
              </marker>
              <marker id="flow-head-light" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" className="flow-head-light" />
              </marker>
              {story.nodes.map((n) => {
                const p = layout.nodes.get(n.id)!;
                return (
                  <clipPath id={`flow-thumb-${n.id}`} key={n.id}>
                    <rect x={p.x + 8} y={p.y + THUMB_TOP} width={p.width - 16} height={THUMB_H} rx={6} />
                  </clipPath>
                );
              })}
            </defs>

            {/* Arrows run under the nodes (an arrow routed around passes behind a step, not over it); their
                labels and handles come above. */}
            <g className="flow-edge-paths">
              {arrows.map(({ edge, d }) =>
                edge.to ? (
                  <g key={edge.id} className={edgeClass(edge)}>
                    <path d={d} markerEnd={edge.implicit ? 'url(#flow-head-light)' : 'url(#flow-head)'} />
                  </g>
                ) : null,
              )}
            </g>

            {story.nodes.map((n) => (
              <Fragment key={n.id}>
                <Node
                  node={n}
                  box={layout.nodes.get(n.id)!}
                  color={n.chapterId ? chapterColor.get(n.chapterId) : undefined}
                  target={drag?.over === n.id}
                  onOpen={() => onOpenStep(n.id)}
                />
                {rowsOf(n)}
              </Fragment>
            ))}

            <g className="flow-edges">
              {arrows.map(({ edge, start, end, mid }) => {
                if (edge.to) {
                  return (
                    <g key={edge.id} className={edgeClass(edge)} data-flow-edge={edge.element ? `${edge.from}:${edge.element.id}` : `${edge.from}:next`}>
                      {!edge.implicit && edge.label ? <EdgeLabel at={mid} text={edge.type === 'submit' ? `${edge.label} (send)` : edge.label} /> : null}
                      {!edge.implicit && edge.element && !readOnly ? (
                        <circle
                          className="flow-edge-handle"
                          cx={end.x}
                          cy={end.y}
                          r={7}
                          data-flow-handle={`${edge.from}:${edge.element.id}`}
                          onPointerDown={(ev) => startDrag(ev, edge.element!, start, 'retarget')}
                        />
                      ) : null}
                    </g>
                  );
                }
                if (edge.broken) {
                  return (
                    <g key={edge.id} className="flow-edge flow-edge-broken" data-flow-edge={`${edge.from}:${edge.element?.id}`}>
                      <title>{`“${edge.label}” goes to a step or chapter that does not exist`}</title>
                      <path d={`M${start.x},${start.y} L${end.x},${end.y}`} />
                      <circle
                        className="flow-broken-end"
                        cx={end.x + 6}
                        cy={end.y}
                        r={8}
                        data-flow-handle={`${edge.from}:${edge.element?.id}`}
                        onPointerDown={edge.element && !readOnly ? (ev) => startDrag(ev, edge.element!, start, 'retarget') : undefined}
                      />
                      <text x={end.x + 6} y={end.y + 4} textAnchor="middle" className="flow-broken-x">
                        ✕
                      </text>
                    </g>
                  );
                }
                if (edge.outbound) {
                  const glyph = edge.outbound.kind === 'restart' ? '↺' : edge.outbound.kind === 'end' ? '⚑' : '↗';
                  return (
                    <g key={edge.id} className={`flow-edge flow-outbound flow-outbound-${edge.outbound.kind}`}>
                      <title>{`${edge.label}: ${describeAction(edge.element?.action ?? { type: 'next' }, story, input)}`}</title>
                      <path d={`M${start.x},${start.y} L${end.x - 2},${end.y}`} />
                      <circle cx={end.x + 6} cy={end.y} r={8} />
                      <text x={end.x + 6} y={end.y + 4} textAnchor="middle">
                        {glyph}
                      </text>
                    </g>
                  );
                }
                return null;
              })}
            </g>

            {drag ? (
              <path
                className="flow-drag-line"
                d={`M${drag.start.x},${drag.start.y} C${drag.start.x + 60},${drag.start.y} ${drag.pointer.x},${drag.pointer.y - 60} ${drag.pointer.x},${drag.pointer.y}`}
                markerEnd="url(#flow-head)"
              />
            ) : null}
          </svg>
        )}
      </div>
      <p className="visually-hidden" aria-live="polite">
        {announce}
      </p>
    </section>
  );
}

/** How many characters of a row's label fit beside its target (12 px text, 11 px bold target, 208 px node). */
const labelRoom = (target: string) => Math.max(6, Math.floor((176 - target.length * 6.8) / 6.9) - 2);

function rowSummary(element: FlowElement, edge: FlowEdge | undefined, nodes: ReadonlyMap<string, FlowNode>): { text: string; broken: boolean } {
  if (element.action.type === 'next') return { text: '→ next', broken: false };
  if (!edge) return { text: '', broken: false };
  if (edge.broken) return { text: '✕ missing', broken: true };
  if (edge.to) return { text: `→ ${nodes.get(edge.to)?.number ?? '?'}`, broken: false };
  if (edge.outbound?.kind === 'url' || edge.outbound?.kind === 'demo') return { text: `↗ ${clip(host(edge.outbound.text), 10)}`, broken: false };
  if (edge.outbound?.kind === 'restart') return { text: '↺ 1', broken: false };
  return { text: '⚑ end', broken: false };
}

function EdgeLabel({ at, text }: { at: Point; text: string }) {
  const shown = clip(text, 20);
  const width = shown.length * 6.4 + 14;
  return (
    <g className="flow-edge-label">
      <rect x={at.x - width / 2} y={at.y - 10} width={width} height={20} rx={10} />
      <text x={at.x} y={at.y + 4} textAnchor="middle">
        {shown}
      </text>
    </g>
  );
}

function Node({ node, box, color, target, onOpen }: { node: FlowNode; box: { x: number; y: number; width: number; height: number }; color?: string; target: boolean; onOpen(): void }) {
  const image = assetPath(node.imageUrl);
  const { x, y, width, height } = box;
  const label = `Step ${node.number}: ${node.title || 'untitled'}${node.kind !== 'page' ? ` (${KIND_WORDS[node.kind] ?? node.kind})` : ''}${
    node.problems.length ? `. ${node.problems.join(' ')}` : ''
  }. Open in the editor`;
  return (
    // biome-ignore lint/a11y/useSemanticElements: an SVG node cannot be a <button>; it is focusable and answers Enter and Space
    <g
      className={`flow-node${node.unreachable ? ' flow-node-unreachable' : ''}${target ? ' flow-node-target' : ''}`}
      data-flow-node={node.id}
      data-step-number={node.number}
      role="button"
      tabIndex={0}
      aria-label={label}
      onClick={onOpen}
      onKeyDown={(ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          onOpen();
        }
      }}
    >
      <rect className="flow-node-box" x={x} y={y} width={width} height={height} rx={10} style={color ? { stroke: color } : undefined} />
      {color ? <rect x={x + 1} y={y + 1} width={width - 2} height={5} rx={2} fill={color} /> : null}
      {image ? (
        <image href={image} x={x + 8} y={y + THUMB_TOP} width={width - 16} height={THUMB_H} preserveAspectRatio="xMidYMin slice" clipPath={`url(#flow-thumb-${node.id})`} />
      ) : (
        <g className="flow-kind">
          <rect x={x + 8} y={y + THUMB_TOP} width={width - 16} height={THUMB_H} rx={6} />
          <text x={x + width / 2} y={y + THUMB_TOP + THUMB_H / 2 + 2} textAnchor="middle" className="flow-kind-icon">
            {KIND_ICONS[node.kind] ?? '▭'}
          </text>
          <text x={x + width / 2} y={y + THUMB_TOP + THUMB_H / 2 + 24} textAnchor="middle" className="flow-kind-word">
            {KIND_WORDS[node.kind] ?? node.kind}
          </text>
        </g>
      )}
      <circle className="flow-number" cx={x + 22} cy={y + THUMB_TOP + 14} r={11} style={color ? { fill: color } : undefined} />
      <text x={x + 22} y={y + THUMB_TOP + 18} textAnchor="middle" className="flow-number-text">
        {node.number}
      </text>
      {image && node.kind !== 'page' ? (
        <g className="flow-kind-tag">
          <rect x={x + width - 14 - (KIND_WORDS[node.kind] ?? node.kind).length * 6.2 - 10} y={y + THUMB_TOP + 5} width={(KIND_WORDS[node.kind] ?? node.kind).length * 6.2 + 10} height={18} rx={9} />
          <text x={x + width - 19} y={y + THUMB_TOP + 18} textAnchor="end">
            {KIND_WORDS[node.kind] ?? node.kind}
          </text>
        </g>
      ) : null}
      {node.problems.length ? (
        <g className="flow-warning">
          <circle cx={x + width - 6} cy={y + 6} r={10} />
          <text x={x + width - 6} y={y + 10} textAnchor="middle">
            !
          </text>
        </g>
      ) : null}
      <text x={x + 10} y={y + TITLE_Y} className="flow-title">
        {clip(node.title || 'Untitled step', 27)}
      </text>
      {node.unreachable ? (
        <text x={x + 10} y={y + height - 8} className="flow-unreachable-text">
          ⚠ Not reachable from step 1
        </text>
      ) : null}
      <title>{label}</title>
    </g>
  );
}

/** The keyboard's (and anyone's) way to branch: where the selected hotspot or button goes, from a menu. */
function TargetMenu({
  element,
  node,
  nodes,
  chapters,
  readOnly,
  describe,
  onPick,
  onClose,
}: {
  element: FlowElement;
  node: FlowNode;
  nodes: FlowNode[];
  chapters: ReadonlyArray<{ id: string; title: string }>;
  readOnly: boolean;
  describe: string;
  onPick(action: StoryAction): void;
  onClose(): void;
}) {
  const current = element.action;
  const currentStep = nodes.find((n) => n.number === current.target || n.id === current.target);
  const value =
    current.type === 'next'
      ? 'next'
      : (current.type === 'goto' || current.type === 'submit') && currentStep
        ? `step:${currentStep.id}`
        : current.type === 'chapter' && chapters.some((c) => c.id === current.target)
          ? `chapter:${current.target}`
          : current.type === 'end' || current.type === 'restart'
            ? current.type
            : 'other';
  const pick = (v: string) => {
    if (v === 'other' || v === value) return;
    if (v === 'next' || v === 'end' || v === 'restart') onPick({ type: v });
    else if (v.startsWith('step:')) onPick({ type: current.type === 'submit' ? 'submit' : 'goto', target: v.slice(5) });
    else if (v.startsWith('chapter:')) onPick({ type: 'chapter', target: v.slice(8) });
  };
  const what = element.kind === 'hotspot' ? 'Hotspot' : 'Button';
  return (
    <div className="flow-target-menu">
      <label htmlFor="flow-target">
        {what} <strong>“{element.label || 'unnamed'}”</strong> on step {node.number} goes to
      </label>
      <select id="flow-target" value={value} disabled={readOnly} onChange={(e) => pick(e.target.value)} onKeyDown={(e) => e.key === 'Escape' && onClose()}>
        {value === 'other' ? <option value="other">{describe}</option> : null}
        <option value="next">The next step</option>
        {nodes
          .filter((n) => n.id !== node.id)
          .map((n) => (
            <option key={n.id} value={`step:${n.id}`}>
              Step {n.number}: {clip(n.title || 'Untitled step', 40)}
            </option>
          ))}
        {chapters.map((c) => (
          <option key={c.id} value={`chapter:${c.id}`}>
            Chapter: {clip(c.title, 40)}
          </option>
        ))}
        <option value="end">End the demo</option>
        <option value="restart">Restart (step 1)</option>
      </select>
      <Button size="sm" variant="ghost" onClick={onClose}>
        Done
      </Button>
    </div>
  );
}
