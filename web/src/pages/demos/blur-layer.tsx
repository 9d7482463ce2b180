import { type KeyboardEvent, type PointerEvent as ReactPointerEvent, useEffect, useRef, useState } from 'react';
import type { RedactionsBody } from '../../api/demos.api';
import type { Step } from '../../api/types';
import { describeElement, pickableElements, selectorFor } from './element-selector';
import { applyDrag, type Box } from './canvas-box';

/** The API takes at most 50 regions and 50 selectors in one request. */
export const MAX_BLUR_ITEMS = 50;
/** Room around a picked element in the screenshot, in page pixels, so no edge of its text stays sharp. */
const ELEMENT_PADDING = 4;
/** An area drawn smaller than this (a click, a slip) is not kept. */
const MIN_AREA = 0.01;
/** Arrow keys move (with Shift, resize) an area by 1% of the image, as they do hotspots. */
const NUDGE = 0.01;
/** Where "Add an area" puts a new one, to be moved with the keys or the pointer. */
export const DEFAULT_AREA: Box = { x: 0.35, y: 0.4, width: 0.3, height: 0.12 };

export type BlurItem = { kind: 'area'; box: Box } | { kind: 'element'; selector: string; label: string; box: Box | null };

/** What the user has marked on one step and not applied yet: nothing is sent until they apply. */
export interface BlurDraft {
  stepId: string;
  mode: 'area' | 'element';
  style: 'blur' | 'solid';
  items: BlurItem[];
  selected: number | null;
}

export function newBlurDraft(step: Step): BlurDraft {
  return { stepId: step.id, mode: step.image_url ? 'area' : 'element', style: 'blur', items: [], selected: null };
}

/**
 * The request: areas as regions, elements as selectors, and, where the step has a screenshot too, each
 * element's box as a region so the screenshot is blurred at the same place.
 */
export function blurBody(draft: BlurDraft, step: Step): RedactionsBody {
  const regions = step.image_url ? draft.items.flatMap((i) => (i.box ? [i.box] : [])) : [];
  const selectors = step.html_url ? [...new Set(draft.items.flatMap((i) => (i.kind === 'element' ? [i.selector] : [])))] : [];
  return { ...(regions.length > 0 ? { regions } : {}), ...(selectors.length > 0 ? { selectors } : {}), style: draft.style };
}

export const itemLabel = (item: BlurItem) =>
  item.kind === 'area' ? `Area ${Math.round(item.box.width * 100)}% × ${Math.round(item.box.height * 100)}%` : `Element ${item.label}`;

const round = (v: number) => Math.round(v * 10_000) / 10_000;
const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const pct = (v: number) => `${(v * 100).toFixed(3)}%`;

/** An element's box in fractions of the page as laid out, padded and cut to it; null when outside it. */
function elementBox(el: Element, layout: { width: number; height: number }): Box | null {
  const r = el.getBoundingClientRect();
  const x = clamp01((r.left - ELEMENT_PADDING) / layout.width);
  const y = clamp01((r.top - ELEMENT_PADDING) / layout.height);
  const right = clamp01((r.right + ELEMENT_PADDING) / layout.width);
  const bottom = clamp01((r.bottom + ELEMENT_PADDING) / layout.height);
  if (right - x <= 0 || bottom - y <= 0) return null;
  return { x: round(x), y: round(y), width: round(right - x), height: round(bottom - y) };
}

/**
 * Over the step while the blur tool is open. Areas: drag on the image to mark one, drag a marked one to
 * move it, its corner to resize it; focused, arrow keys move it, Shift + arrows resize it, Delete removes
 * it. Elements: the page snapshot is shown; hover highlights an element and a click marks it, or, with the
 * layer focused, arrow keys go from element to element and Enter marks the highlighted one.
 */
export function BlurLayer({
  draft,
  frame,
  layout,
  onChange,
}: {
  draft: BlurDraft;
  /** The snapshot frame once loaded (element mode), to find elements in. */
  frame: HTMLIFrameElement | null;
  layout: { width: number; height: number };
  onChange(draft: BlurDraft): void;
}) {
  const layer = useRef<HTMLDivElement>(null);
  const [drawing, setDrawing] = useState<{ start: { x: number; y: number }; box: Box } | null>(null);
  const drag = useRef<{ index: number; mode: 'move' | 'resize'; startX: number; startY: number; start: Box } | null>(null);
  const [hovered, setHovered] = useState<{ el: Element; box: Box | null } | null>(null);
  const [cursor, setCursor] = useState(-1);
  const [announcement, setAnnouncement] = useState('');
  const full = draft.items.length >= MAX_BLUR_ITEMS;

  // biome-ignore lint/correctness/useExhaustiveDependencies: another mode or page has other elements
  useEffect(() => {
    setHovered(null);
    setCursor(-1);
  }, [draft.mode, frame]);

  const point = (event: { clientX: number; clientY: number }) => {
    const rect = layer.current!.getBoundingClientRect();
    return { x: clamp01((event.clientX - rect.left) / rect.width), y: clamp01((event.clientY - rect.top) / rect.height) };
  };

  const add = (item: BlurItem) => {
    if (full) {
      setAnnouncement(`At most ${MAX_BLUR_ITEMS} at a time: apply these first.`);
      return;
    }
    onChange({ ...draft, items: [...draft.items, item], selected: draft.items.length });
  };
  const setBox = (index: number, box: Box) =>
    onChange({ ...draft, items: draft.items.map((item, i) => (i === index && item.kind === 'area' ? { ...item, box } : item)) });
  const remove = (index: number) => onChange({ ...draft, items: draft.items.filter((_, i) => i !== index), selected: null });

  // ---- areas ----
  function down(event: ReactPointerEvent) {
    event.stopPropagation();
    if (draft.mode !== 'area') return;
    event.preventDefault();
    layer.current?.setPointerCapture(event.pointerId);
    const start = point(event);
    setDrawing({ start, box: { ...start, width: 0, height: 0 } });
    onChange({ ...draft, selected: null });
  }

  function beginDrag(event: ReactPointerEvent, index: number, mode: 'move' | 'resize') {
    event.stopPropagation();
    event.preventDefault();
    const item = draft.items[index];
    if (item?.kind !== 'area') return;
    layer.current?.setPointerCapture(event.pointerId);
    drag.current = { index, mode, startX: event.clientX, startY: event.clientY, start: item.box };
    onChange({ ...draft, selected: index });
  }

  function move(event: ReactPointerEvent) {
    const d = drag.current;
    if (d) {
      const rect = layer.current!.getBoundingClientRect();
      setBox(d.index, applyDrag(d.start, d.mode, (event.clientX - d.startX) / rect.width, (event.clientY - d.startY) / rect.height));
      return;
    }
    if (drawing) {
      const p = point(event);
      const x = Math.min(p.x, drawing.start.x);
      const y = Math.min(p.y, drawing.start.y);
      setDrawing({ ...drawing, box: { x, y, width: Math.abs(p.x - drawing.start.x), height: Math.abs(p.y - drawing.start.y) } });
      return;
    }
    if (draft.mode === 'element') hover(event);
  }

  function up() {
    if (drag.current) {
      drag.current = null;
      return;
    }
    if (drawing) {
      const { box } = drawing;
      setDrawing(null);
      if (box.width >= MIN_AREA && box.height >= MIN_AREA) {
        add({ kind: 'area', box: { x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height) } });
      }
    }
  }

  function nudgeArea(event: KeyboardEvent, index: number) {
    const item = draft.items[index];
    if (item?.kind !== 'area') return;
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      remove(index);
      layer.current?.focus();
      return;
    }
    const delta: Record<string, [number, number]> = { ArrowLeft: [-NUDGE, 0], ArrowRight: [NUDGE, 0], ArrowUp: [0, -NUDGE], ArrowDown: [0, NUDGE] };
    const d = delta[event.key];
    if (!d || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation();
    setBox(index, applyDrag(item.box, event.shiftKey ? 'resize' : 'move', d[0], d[1]));
  }

  // ---- elements ----
  const doc = () => (draft.mode === 'element' ? (frame?.contentDocument ?? null) : null);

  function hover(event: ReactPointerEvent) {
    const page = doc();
    const rect = layer.current?.getBoundingClientRect();
    if (!page || !rect) return;
    const scale = rect.width / layout.width;
    const el = page.elementFromPoint((event.clientX - rect.left) / scale, (event.clientY - rect.top) / scale);
    if (!el || el === page.documentElement || el === page.body) {
      setHovered(null);
      return;
    }
    if (el !== hovered?.el) setHovered({ el, box: elementBox(el, layout) });
  }

  function pick(el: Element) {
    const selector = selectorFor(el);
    if (draft.items.some((i) => i.kind === 'element' && i.selector === selector)) {
      setAnnouncement('That element is marked already.');
      return;
    }
    const label = describeElement(el);
    add({ kind: 'element', selector, label, box: elementBox(el, layout) });
    setAnnouncement(`Marked ${label} to blur.`);
  }

  function elementKeys(event: KeyboardEvent) {
    const page = doc();
    if (!page || event.altKey || event.ctrlKey || event.metaKey) return;
    if ((event.key === 'Enter' || event.key === ' ') && hovered) {
      event.preventDefault();
      pick(hovered.el);
      return;
    }
    const step = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 }[event.key];
    if (!step) return;
    event.preventDefault();
    const elements = pickableElements(page, layout.width, layout.height);
    if (elements.length === 0) return;
    const next = (cursor + step + elements.length) % elements.length;
    const el = elements[next]!;
    setCursor(next);
    setHovered({ el, box: elementBox(el, layout) });
    setAnnouncement(`${describeElement(el)}, ${next + 1} of ${elements.length}. Enter marks it.`);
  }

  const picking = draft.mode === 'element';
  return (
    <div
      ref={layer}
      className={`blur-layer blur-${draft.style}${picking ? ' blur-layer-pick' : ''}`}
      role="application"
      aria-label={
        picking
          ? 'Page snapshot: point at an element and click it to mark it for blurring, or use the arrow keys and Enter'
          : 'Step image: drag to mark an area to blur'
      }
      aria-describedby="blur-layer-status"
      tabIndex={picking ? 0 : undefined}
      onPointerDown={down}
      onPointerMove={move}
      onPointerUp={up}
      onPointerCancel={up}
      onPointerLeave={() => picking && !drawing && setHovered(null)}
      onClick={() => picking && hovered && pick(hovered.el)}
      onKeyDown={picking ? elementKeys : undefined}
    >
      {draft.items.map((item, index) =>
        item.kind === 'area' ? (
          <button
            type="button"
            // biome-ignore lint/suspicious/noArrayIndexKey: an item's number is its place in the list
            key={index}
            className={`blur-box${draft.selected === index ? ' blur-box-selected' : ''}`}
            style={{ left: pct(item.box.x), top: pct(item.box.y), width: pct(item.box.width), height: pct(item.box.height) }}
            aria-label={`Blur ${index + 1}: ${itemLabel(item)}. Arrow keys move it, Shift with the arrow keys resizes it, Delete removes it.`}
            aria-pressed={draft.selected === index}
            data-blur-index={index}
            disabled={picking}
            onPointerDown={(e) => beginDrag(e, index, 'move')}
            onFocus={() => draft.selected !== index && onChange({ ...draft, selected: index })}
            onKeyDown={(e) => nudgeArea(e, index)}
          >
            <span className="blur-box-number" aria-hidden="true">
              {index + 1}
            </span>
            {picking ? null : <span className="blur-box-handle" aria-hidden="true" onPointerDown={(e) => beginDrag(e, index, 'resize')} />}
          </button>
        ) : item.box ? (
          <div
            // biome-ignore lint/suspicious/noArrayIndexKey: an item's number is its place in the list
            key={index}
            className="blur-box blur-box-element"
            style={{ left: pct(item.box.x), top: pct(item.box.y), width: pct(item.box.width), height: pct(item.box.height) }}
            aria-hidden="true"
          >
            <span className="blur-box-number">{index + 1}</span>
          </div>
        ) : null,
      )}
      {drawing ? (
        <div
          className="blur-box blur-box-drawing"
          style={{ left: pct(drawing.box.x), top: pct(drawing.box.y), width: pct(drawing.box.width), height: pct(drawing.box.height) }}
          aria-hidden="true"
        />
      ) : null}
      {picking && hovered?.box ? (
        <div
          className="blur-pick"
          style={{ left: pct(hovered.box.x), top: pct(hovered.box.y), width: pct(hovered.box.width), height: pct(hovered.box.height) }}
          aria-hidden="true"
        />
      ) : null}
      <span className="visually-hidden" id="blur-layer-status" aria-live="polite">
        {announcement}
      </span>
    </div>
  );
}
