import type { Step } from '../../api/types';
import { Button } from '../../components/button';
import { SelectField } from '../../components/field';
import { type BlurDraft, DEFAULT_AREA, itemLabel, MAX_BLUR_ITEMS } from './blur-layer';

/**
 * The blur tool's side of the inspector: what to mark (areas of the screenshot, elements of the page
 * snapshot), how it looks, the list of what is marked, and Apply, which asks before it blurs for good.
 */
export function BlurPanel({
  step,
  draft,
  busy,
  onChange,
  onUndo,
  onApply,
  onCancel,
}: {
  step: Step;
  draft: BlurDraft;
  busy: boolean;
  onChange(draft: BlurDraft): void;
  onUndo(): void;
  onApply(): void;
  onCancel(): void;
}) {
  const both = !!step.image_url && !!step.html_url;
  const full = draft.items.length >= MAX_BLUR_ITEMS;
  const lost = step.image_url ? draft.items.filter((i) => i.kind === 'element' && !i.box).length : 0;
  return (
    <section className="panel blur-panel" aria-label="Blur">
      <h2 className="panel-title">Blur</h2>
      <p className="cell-sub" id="blur-how">
        {draft.mode === 'area'
          ? 'Drag over the image to mark what to hide: a name, an e-mail, a balance. Drag a marked area to move it, its corner to resize it.'
          : 'Point at an element of the page and click it, or focus the page and use the arrow keys and Enter. Its text and pictures are removed from the snapshot.'}
      </p>
      {both ? (
        // biome-ignore lint/a11y/useSemanticElements: two pressed-state buttons, as the zoom buttons are
        <div className="row blur-modes" role="group" aria-label="What to mark">
          <Button size="sm" variant={draft.mode === 'area' ? 'primary' : 'secondary'} aria-pressed={draft.mode === 'area'} onClick={() => onChange({ ...draft, mode: 'area' })}>
            Draw areas
          </Button>
          <Button size="sm" variant={draft.mode === 'element' ? 'primary' : 'secondary'} aria-pressed={draft.mode === 'element'} onClick={() => onChange({ ...draft, mode: 'element' })}>
            Blur an element
          </Button>
        </div>
      ) : null}
      {step.image_url ? (
        <SelectField label="Look" value={draft.style} onChange={(e) => onChange({ ...draft, style: e.target.value as BlurDraft['style'] })}>
          <option value="blur">Blurred</option>
          <option value="solid">Solid box</option>
        </SelectField>
      ) : null}

      {draft.items.length > 0 ? (
        <ol className="blur-items" aria-label="Marked to blur">
          {draft.items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: an item's number is its place in the list
            <li key={index} className={draft.selected === index ? 'blur-item-selected' : undefined}>
              <span className="blur-item-number" aria-hidden="true">
                {index + 1}
              </span>
              <span className="blur-item-label">
                {itemLabel(item)}
                {item.kind === 'element' && step.image_url && !item.box ? <span className="cell-sub"> · outside the screenshot</span> : null}
              </span>
              <Button
                size="sm"
                variant="ghost"
                aria-label={`Remove ${index + 1}: ${itemLabel(item)}`}
                onClick={() => onChange({ ...draft, items: draft.items.filter((_, i) => i !== index), selected: null })}
              >
                Remove
              </Button>
            </li>
          ))}
        </ol>
      ) : (
        <p className="cell-sub">Nothing marked yet.</p>
      )}
      {lost > 0 ? <p className="cell-sub">Elements outside the screenshot are blurred in the page snapshot only.</p> : null}
      {full ? <p className="cell-sub">At most {MAX_BLUR_ITEMS} at a time: apply these, then mark more.</p> : null}

      <div className="row blur-actions">
        {draft.mode === 'area' ? (
          <Button
            size="sm"
            disabled={full}
            onClick={() => {
              const index = draft.items.length;
              onChange({ ...draft, items: [...draft.items, { kind: 'area', box: { ...DEFAULT_AREA } }], selected: index });
              // Focused, the new area moves with the arrow keys straight away.
              requestAnimationFrame(() => document.querySelector<HTMLElement>(`[data-blur-index="${index}"]`)?.focus());
            }}
          >
            Add an area
          </Button>
        ) : null}
        <Button size="sm" disabled={draft.items.length === 0} onClick={onUndo} title="Undo the last mark (Ctrl+Z)">
          Undo
        </Button>
      </div>
      <p className="cell-sub">The original is deleted when you apply: this cannot be undone.</p>
      <div className="row blur-actions">
        <Button variant="primary" size="sm" disabled={draft.items.length === 0} loading={busy} onClick={onApply}>
          Apply blur
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
