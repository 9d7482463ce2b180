import { type PointerEvent as ReactPointerEvent, useEffect, useRef, useState } from 'react';
import { assetPath } from '../../api/demos.api';
import type { Hotspot, Step } from '../../api/types';
import { type BlurDraft, BlurLayer } from './blur-layer';
import { applyDrag, type Box } from './canvas-box';
import { SNAPSHOT_SIZE, SnapshotFrame } from './snapshot-frame';

/** Arrow keys move (or, with Shift, resize) the selected hotspot by 1% of the image. */
const NUDGE = 0.01;
/** Key presses in a row are saved once, this long after the last. */
const NUDGE_SAVE_MS = 500;

/** Keys typed into a field belong to the field (its own caret, undo and selection). */
export function isTextTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/**
 * The step image with its hotspots. Hotspots are dragged to move them and by their corner to resize
 * them, or, once selected, moved with the arrow keys (Shift + arrows resizes); a drag is saved when the
 * pointer is released and key presses once they pause, not on every pixel. `width` is the canvas width
 * in CSS pixels, or undefined to fit the stage.
 */
export function StepCanvas({
  step,
  hotspots,
  selectedId,
  readOnly,
  themeColor,
  width,
  onSelect,
  onChange,
  blur,
}: {
  step: Step;
  hotspots: Hotspot[];
  selectedId: string | null;
  readOnly: boolean;
  themeColor: string;
  width?: number;
  onSelect(id: string | null): void;
  onChange(hotspot: Hotspot, box: Box): void;
  /** The blur tool, while it is open: hotspots step aside for the areas and elements being marked. */
  blur?: { draft: BlurDraft; onChange(draft: BlurDraft): void };
}) {
  const frame = useRef<HTMLDivElement>(null);
  // The loaded snapshot frame, where the blur tool finds the elements it marks.
  const [snapshotFrame, setSnapshotFrame] = useState<HTMLIFrameElement | null>(null);
  const layout = { width: step.width ?? SNAPSHOT_SIZE.width, height: step.height ?? SNAPSHOT_SIZE.height };
  // Picking elements shows the snapshot, also on a step that has a screenshot of the same page.
  const showSnapshot = !!step.html_url && (!step.image_url || blur?.draft.mode === 'element');
  const [draft, setDraft] = useState<{ id: string; box: Box } | null>(null);
  // Snapshot steps: where hotspots with a selector sit on their elements (as the player puts them).
  const [placed, setPlaced] = useState<Record<string, Box>>({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: another step has other elements
  useEffect(() => setPlaced({}), [step.id]);
  /** The box as shown (and as viewers see it): on its element while the hotspot has a selector. */
  const shownBox = (h: Hotspot): Box => (h.selector && placed[h.id]) || boxOf(h);
  const drag = useRef<{ id: string; mode: 'move' | 'resize'; startX: number; startY: number; start: Box; moved: boolean } | null>(null);

  // A dragged box keeps its draft position until the saved hotspots come back, so it does not jump.
  // biome-ignore lint/correctness/useExhaustiveDependencies: new hotspots from the server end the draft
  useEffect(() => setDraft(null), [hotspots]);

  function begin(event: ReactPointerEvent, hotspot: Hotspot, mode: 'move' | 'resize') {
    onSelect(hotspot.id);
    if (readOnly) return;
    event.preventDefault();
    event.stopPropagation();
    (event.currentTarget as HTMLElement).setPointerCapture(event.pointerId);
    drag.current = { id: hotspot.id, mode, startX: event.clientX, startY: event.clientY, start: shownBox(hotspot), moved: false };
  }

  function move(event: ReactPointerEvent) {
    const d = drag.current;
    const rect = frame.current?.getBoundingClientRect();
    if (!d || !rect) return;
    const dx = (event.clientX - d.startX) / rect.width;
    const dy = (event.clientY - d.startY) / rect.height;
    if (Math.abs(dx) + Math.abs(dy) > 0.001) d.moved = true;
    setDraft({ id: d.id, box: applyDrag(d.start, d.mode, dx, dy) });
  }

  function end() {
    const d = drag.current;
    drag.current = null;
    if (!d?.moved || !draft) return;
    const hotspot = hotspots.find((h) => h.id === d.id);
    if (hotspot) onChange(hotspot, draft.box);
  }

  // Arrow keys act on the selected hotspot wherever the focus is, except in a text field.
  const nudged = useRef<{ id: string; box: Box; timer: ReturnType<typeof setTimeout> } | null>(null);
  const latest = useRef({ hotspots, shownBox, onChange });
  latest.current = { hotspots, shownBox, onChange };
  useEffect(() => {
    if (readOnly || !selectedId) return;
    const delta: Record<string, [number, number]> = { ArrowLeft: [-NUDGE, 0], ArrowRight: [NUDGE, 0], ArrowUp: [0, -NUDGE], ArrowDown: [0, NUDGE] };
    const flush = () => {
      const n = nudged.current;
      nudged.current = null;
      if (!n) return;
      clearTimeout(n.timer);
      const hotspot = latest.current.hotspots.find((h) => h.id === n.id);
      if (hotspot) latest.current.onChange(hotspot, n.box);
    };
    const onKey = (event: KeyboardEvent) => {
      const d = delta[event.key];
      if (!d || event.altKey || event.ctrlKey || event.metaKey || isTextTarget(event.target)) return;
      const hotspot = latest.current.hotspots.find((h) => h.id === selectedId);
      if (!hotspot) return;
      event.preventDefault();
      const from = nudged.current?.id === hotspot.id ? nudged.current.box : latest.current.shownBox(hotspot);
      const box = applyDrag(from, event.shiftKey ? 'resize' : 'move', d[0], d[1]);
      if (nudged.current) clearTimeout(nudged.current.timer);
      nudged.current = { id: hotspot.id, box, timer: setTimeout(flush, NUDGE_SAVE_MS) };
      setDraft({ id: hotspot.id, box });
    };
    window.addEventListener('keydown', onKey);
    // A press elsewhere (Publish, another step) saves the nudges first, so the click comes after their save.
    window.addEventListener('pointerdown', flush, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', flush, true);
      flush();
    };
  }, [readOnly, selectedId]);

  const ratio = step.width && step.height ? `${step.width} / ${step.height}` : '16 / 10';
  return (
    <div
      className="canvas"
      ref={frame}
      style={{ aspectRatio: ratio, ['--theme' as string]: themeColor, ...(width ? { width, maxWidth: 'none' } : {}) }}
      onPointerDown={() => onSelect(null)}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
    >
      {showSnapshot && step.html_url ? (
        <SnapshotFrame
          key={`${step.id}:${step.html_url}`}
          url={step.html_url}
          width={step.width ?? undefined}
          height={step.height ?? undefined}
          title={`Step ${step.number}: ${step.title}`}
          hotspots={hotspots}
          onPlaced={setPlaced}
          onFrame={setSnapshotFrame}
        />
      ) : step.image_url ? (
        <img className="canvas-image" src={assetPath(step.image_url)} alt={`Step ${step.number}: ${step.title}`} draggable={false} />
      ) : (
        <div className="canvas-empty">No image yet: upload a screenshot of this step.</div>
      )}
      {blur ? <BlurLayer draft={blur.draft} frame={showSnapshot ? snapshotFrame : null} layout={layout} onChange={blur.onChange} /> : null}
      {(blur ? [] : hotspots).map((h) => {
        const box = draft?.id === h.id ? draft.box : shownBox(h);
        return (
          <button
            type="button"
            key={h.id}
            className={`hotspot${selectedId === h.id ? ' hotspot-selected' : ''}`}
            style={{ left: pct(box.x), top: pct(box.y), width: pct(box.width), height: pct(box.height) }}
            aria-label={`Hotspot ${h.label || 'without label'}`}
            aria-pressed={selectedId === h.id}
            data-hotspot-id={h.id}
            onPointerDown={(e) => begin(e, h, 'move')}
          >
            {readOnly ? null : <span className="hotspot-handle" aria-hidden="true" onPointerDown={(e) => begin(e, h, 'resize')} />}
          </button>
        );
      })}
    </div>
  );
}

const pct = (v: number) => `${(v * 100).toFixed(3)}%`;
const boxOf = (h: Hotspot): Box => ({ x: h.x, y: h.y, width: h.width, height: h.height });
