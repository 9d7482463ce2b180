import { type PointerEvent as ReactPointerEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { assetPath } from '../../api/demos.api';
import type { Hotspot, Step } from '../../api/types';
import { SnapshotFrame } from './snapshot-frame';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const MIN_SIZE = 0.02;
const round = (v: number) => Math.round(v * 10_000) / 10_000;
const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Moves or resizes a box by a pointer delta in fractions, keeping it inside the image. */
function applyDrag(start: Box, mode: 'move' | 'resize', dx: number, dy: number): Box {
  if (mode === 'move') {
    return { ...start, x: round(clamp(start.x + dx, 0, 1 - start.width)), y: round(clamp(start.y + dy, 0, 1 - start.height)) };
  }
  return {
    ...start,
    width: round(clamp(start.width + dx, MIN_SIZE, 1 - start.x)),
    height: round(clamp(start.height + dy, MIN_SIZE, 1 - start.y)),
  };
}

/**
 * The step image with its hotspots. Hotspots are dragged to move them and by their corner to resize
 * them (or moved with the arrow keys, Shift for bigger steps); the change is saved when the pointer is
 * released, not on every pixel.
 */
export function StepCanvas({
  step,
  hotspots,
  selectedId,
  readOnly,
  themeColor,
  onSelect,
  onChange,
}: {
  step: Step;
  hotspots: Hotspot[];
  selectedId: string | null;
  readOnly: boolean;
  themeColor: string;
  onSelect(id: string | null): void;
  onChange(hotspot: Hotspot, box: Box): void;
}) {
  const frame = useRef<HTMLDivElement>(null);
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

  function nudge(event: KeyboardEvent, hotspot: Hotspot) {
    const step = event.shiftKey ? 0.05 : 0.01;
    const delta: Record<string, [number, number]> = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    const d = delta[event.key];
    if (!d || readOnly) return;
    event.preventDefault();
    onChange(hotspot, applyDrag(shownBox(hotspot), event.altKey ? 'resize' : 'move', d[0], d[1]));
  }

  const ratio = step.width && step.height ? `${step.width} / ${step.height}` : '16 / 10';
  return (
    <div
      className="canvas"
      ref={frame}
      style={{ aspectRatio: ratio, ['--theme' as string]: themeColor }}
      onPointerDown={() => onSelect(null)}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
    >
      {step.image_url ? (
        <img className="canvas-image" src={assetPath(step.image_url)} alt={`Step ${step.number}: ${step.title}`} draggable={false} />
      ) : step.html_url ? (
        <SnapshotFrame
          key={step.id}
          url={step.html_url}
          width={step.width ?? undefined}
          height={step.height ?? undefined}
          title={`Step ${step.number}: ${step.title}`}
          hotspots={hotspots}
          onPlaced={setPlaced}
        />
      ) : (
        <div className="canvas-empty">No image yet: upload a screenshot of this step.</div>
      )}
      {hotspots.map((h) => {
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
            onKeyDown={(e) => nudge(e, h)}
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
