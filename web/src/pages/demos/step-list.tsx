import { type ChangeEvent, type DragEvent, useRef, useState } from 'react';
import { assetPath, demosApi } from '../../api/demos.api';
import type { Chapter, DemoDetail, Step, StepKind } from '../../api/types';
import { Button } from '../../components/button';
import { EditorMenu } from './editor-menu';
import { KIND_NAMES, storyOf } from './story';
import { SnapshotFrame } from './snapshot-frame';
import type { DemoChange } from './use-demo-change';

export const IMAGE_TYPES = 'image/png,image/jpeg,image/webp';

/** Takes the file picked in `event` (and clears the input, so the same file can be picked again). */
export function pickedFile(event: ChangeEvent<HTMLInputElement>): File | undefined {
  const file = event.target.files?.[0];
  event.target.value = '';
  return file;
}

/** A step's miniature: its screenshot, or its HTML snapshot scaled down (no hotspots, no scripts). */
function StepThumb({ step }: { step: Step }) {
  const kind = storyOf(step).kind;
  if (kind !== 'page') return <span className={`step-thumb step-thumb-story step-thumb-${kind}`}>{KIND_NAMES[kind]}</span>;
  if (step.image_url) return <img className="step-thumb" src={assetPath(step.image_url)} alt="" draggable={false} />;
  if (step.html_url) {
    return (
      <span className="step-thumb step-thumb-snapshot">
        <SnapshotFrame url={step.html_url} width={step.width ?? undefined} height={step.height ?? undefined} title={step.title} thumbnail />
      </span>
    );
  }
  return <span className="step-thumb step-thumb-empty" />;
}

/** The demo's steps: select one, reorder them (drag and drop, or ↑/↓), delete one, add one. */
export function StepList({
  demo,
  selectedId,
  onSelect,
  onAdded,
  onAddKind,
  chapters,
  problemSteps,
  staleSteps,
  readOnly,
  busy,
  act,
  onReorder,
  onDelete,
}: {
  demo: DemoDetail;
  selectedId: string | null;
  onSelect(stepId: string): void;
  /** A step was added: it becomes the selected one. */
  onAdded(stepId: string): void;
  /** Adds a step of this kind after the selected one. */
  onAddKind(kind: StepKind): void;
  chapters: Chapter[];
  /** Numbers of the steps the story's problems name: marked in the list. */
  problemSteps: Set<number>;
  /** Steps the newest stale-demo check found no longer matching their page, by id (use-stale-check.ts). */
  staleSteps?: Map<string, { status: string }>;
  readOnly: boolean;
  busy: boolean;
  act: DemoChange;
  /** The steps in a new order (ids). */
  onReorder(ids: string[]): void;
  onDelete(step: Step): void;
}) {
  // Drag-and-drop reordering: the step being dragged and the slot it would drop into (0…steps).
  const [drag, setDrag] = useState<{ from: number; slot: number | null } | null>(null);
  const upload = useRef<HTMLInputElement>(null);

  const moveStep = (from: number, to: number) => {
    const ids = demo.steps.map((s) => s.id);
    const [moved] = ids.splice(from, 1);
    ids.splice(to, 0, moved!);
    onReorder(ids);
  };
  /** Dropping into slot `slot` (before step `slot`, or at the end) moves the dragged step there. */
  const dropAt = (slot: number) => {
    const from = drag?.from;
    setDrag(null);
    if (from === undefined) return;
    const to = slot > from ? slot - 1 : slot;
    if (to !== from) moveStep(from, to);
  };
  const slotOf = (event: DragEvent<HTMLLIElement>, index: number) => {
    const box = event.currentTarget.getBoundingClientRect();
    return event.clientY < box.top + box.height / 2 ? index : index + 1;
  };

  return (
    <nav className="step-list" aria-label="Steps">
      <ol>
        {demo.steps.map((s, i) => {
          // Steps are grouped under their chapter's heading, wherever a run of one chapter starts.
          const chapterId = storyOf(s).chapter_id;
          const previous = i > 0 ? storyOf(demo.steps[i - 1]!).chapter_id : undefined;
          const chapter = chapterId !== previous ? chapters.find((c) => c.id === chapterId) : undefined;
          const heading =
            chapterId !== previous && (chapter || (chapterId === null && i > 0)) ? (
              <li key={`h:${s.id}`} className="step-chapter-heading" aria-hidden="true">
                {chapter ? chapter.title : 'No chapter'}
              </li>
            ) : null;
          return [
            heading,
          <li
            key={s.id}
            className={[
              'step-item',
              s.id === selectedId ? 'step-item-selected' : '',
              drag?.from === i ? 'step-item-dragging' : '',
              drag && drag.slot === i ? 'step-item-drop-before' : '',
              drag && drag.slot === i + 1 && i === demo.steps.length - 1 ? 'step-item-drop-after' : '',
            ]
              .filter(Boolean)
              .join(' ')}
            draggable={!readOnly && !busy}
            onDragStart={(event) => {
              event.dataTransfer.effectAllowed = 'move';
              event.dataTransfer.setData('text/plain', s.id);
              setDrag({ from: i, slot: null });
            }}
            onDragOver={(event) => {
              if (!drag) return;
              event.preventDefault();
              event.dataTransfer.dropEffect = 'move';
              const slot = slotOf(event, i);
              if (slot !== drag.slot) setDrag({ ...drag, slot });
            }}
            onDrop={(event) => {
              event.preventDefault();
              dropAt(slotOf(event, i));
            }}
            onDragEnd={() => setDrag(null)}
          >
            {/* The thumbnail sits outside the button (a frame may not be inside one); the button covers it. */}
            <StepThumb step={s} />
            <button type="button" className="step-select" onClick={() => onSelect(s.id)} aria-current={s.id === selectedId ? 'step' : undefined}>
              <span className="step-name">
                {s.number}. {s.title || 'Untitled step'}
              </span>
              {chapter || chapterId ? <span className="visually-hidden"> (chapter {chapters.find((c) => c.id === chapterId)?.title})</span> : null}
              {problemSteps.has(s.number) ? (
                <span className="step-problem" title="This step has a problem: see the panel on the right">
                  ⚠<span className="visually-hidden"> has a problem</span>
                </span>
              ) : null}
              {staleSteps?.has(s.id) ? (
                <span className="step-stale" title="No longer matches its page: select the step to see why">
                  {staleSteps.get(s.id)!.status}
                  <span className="visually-hidden"> since the last check</span>
                </span>
              ) : null}
            </button>
            {readOnly ? null : (
              <span className="step-tools">
                <button type="button" className="icon-button" aria-label={`Move step ${s.number} up`} disabled={i === 0 || busy} onClick={() => moveStep(i, i - 1)}>
                  ↑
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Move step ${s.number} down`}
                  disabled={i === demo.steps.length - 1 || busy}
                  onClick={() => moveStep(i, i + 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="icon-button"
                  aria-label={`Delete step ${s.number}`}
                  disabled={busy}
                  onClick={() => onDelete(s)}
                >
                  ×
                </button>
              </span>
            )}
          </li>,
          ];
        })}
      </ol>
      {readOnly ? null : (
        <div className="step-add">
          <EditorMenu
            label="Add step"
            menuLabel="Kinds of step"
            align="start"
            actions={(Object.keys(KIND_NAMES) as StepKind[]).map((kind) => ({ label: KIND_NAMES[kind], onSelect: () => onAddKind(kind) }))}
          />
          <Button size="sm" onClick={() => upload.current?.click()}>
            Upload screenshot
          </Button>
          <input
            ref={upload}
            type="file"
            accept={IMAGE_TYPES}
            hidden
            aria-label="Screenshot for a new step"
            onChange={(e) => {
              const file = pickedFile(e);
              if (!file) return;
              // The new step is selected once the reloaded demo has it.
              const added = { id: '' };
              void act(async () => {
                added.id = (await demosApi.addImageStep(demo.id, file)).id;
              }, 'Image uploaded').then((ok) => ok && onAdded(added.id));
            }}
          />
        </div>
      )}
    </nav>
  );
}
