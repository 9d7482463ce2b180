import type { Chapter, Step, StepKind, StoryButton } from '../../api/types';
import { Button } from '../../components/button';
import { SelectField } from '../../components/field';
import { PlusIcon } from '../../components/icons';
import { ActionPicker } from './action-picker';
import { chapterButtons, newButtonId } from './story';
import { StoryTextField } from './story-text';
import { useLocalEdit } from './use-local-edit';

const MAX_BUTTONS = 8;
const CTA_NAMES = { book_meeting: 'Book a meeting', sign_up: 'Sign up', link: 'Open a link', restart: 'Restart', demo: 'Another demo', other: 'Other' } as const;

/** On an end screen, what a call to action counts as follows its action, unless the author said more. */
function ctaFor(type: StoryButton['action']['type'], current: StoryButton['cta']): StoryButton['cta'] {
  if (type === 'restart') return 'restart';
  if (type === 'demo') return 'demo';
  if (type === 'url') return current === 'book_meeting' || current === 'sign_up' || current === 'other' ? current : 'link';
  return current === 'restart' || current === 'demo' || current === 'link' ? 'other' : current;
}

/**
 * The buttons of a cover, chapter menu or end screen (a form step's are its submit and skip): add, edit,
 * reorder, remove. Every change hands the whole new list to `onChange` (one undoable change).
 */
export function ButtonsPanel({
  kind,
  buttons: saved,
  steps,
  chapters,
  readOnly,
  busy,
  onChange: save,
}: {
  kind: StepKind;
  buttons: StoryButton[];
  steps: Step[];
  chapters: Chapter[];
  readOnly: boolean;
  /** A change of the demo is on its way: the saved buttons may be older than what is shown. */
  busy: boolean;
  onChange(buttons: StoryButton[]): void;
}) {
  const [buttons, setButtons] = useLocalEdit(saved, busy);
  const onChange = (next: StoryButton[]) => {
    setButtons(next);
    save(next);
  };
  const title = kind === 'end' ? 'Calls to action' : kind === 'chapter_menu' ? 'Chapter buttons' : 'Buttons';
  const set = (i: number, patch: Partial<StoryButton>) => onChange(buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  const move = (from: number, to: number) => {
    const next = [...buttons];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    onChange(next);
  };
  const add = () => {
    const label = kind === 'end' ? 'Book a meeting' : kind === 'chapter_menu' ? 'A chapter' : 'Continue';
    const button: StoryButton =
      kind === 'end'
        ? { id: newButtonId(buttons, label), label, style: buttons.length ? 'secondary' : 'primary', cta: 'book_meeting', action: { type: 'url', target: 'https://example.com/meet' } }
        : kind === 'chapter_menu' && chapters[0]
          ? { id: newButtonId(buttons, chapters[0].title), label: chapters[0].title, style: 'secondary', action: { type: 'chapter', target: chapters[0].id } }
          : { id: newButtonId(buttons, label), label, style: 'primary', action: { type: 'next', target: null } };
    onChange([...buttons, button]);
  };
  return (
    <section className="panel" aria-label={title}>
      <h2 className="panel-title">{title}</h2>
      {buttons.length === 0 ? <p className="field-hint">No buttons yet.</p> : null}
      <ol className="story-buttons">
        {buttons.map((b, i) => {
          const name = `button ${i + 1}`;
          return (
            <li key={b.id} className="story-button-item" aria-label={`Button ${i + 1}: ${b.label}`}>
              <div className="story-button-head">
                <strong>
                  {i + 1}. {b.label}
                </strong>
                {readOnly ? null : (
                  <span className="step-tools">
                    <button type="button" className="icon-button" aria-label={`Move ${name} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>
                      ↑
                    </button>
                    <button type="button" className="icon-button" aria-label={`Move ${name} down`} disabled={i === buttons.length - 1} onClick={() => move(i, i + 1)}>
                      ↓
                    </button>
                    <button type="button" className="icon-button" aria-label={`Remove ${name}`} onClick={() => onChange(buttons.filter((_, j) => j !== i))}>
                      ×
                    </button>
                  </span>
                )}
              </div>
              <StoryTextField label="Label" which={name} value={b.label} required maxLength={80} variables readOnly={readOnly} onCommit={(label) => set(i, { label })} />
              <StoryTextField
                label="Description (optional)" which={name}
                value={b.description ?? ''}
                maxLength={300}
                readOnly={readOnly}
                onCommit={(text) => set(i, { description: text.trim() ? text : undefined })}
              />
              <div className="story-button-row">
                <SelectField label="Style" aria-label={`Style (${name})`} disabled={readOnly} value={b.style} onChange={(e) => set(i, { style: e.target.value as StoryButton['style'] })}>
                  <option value="primary">Primary</option>
                  <option value="secondary">Secondary</option>
                  <option value="link">Link</option>
                </SelectField>
                <SelectField
                  label="Counts as"
                  aria-label={`Counts as (${name})`}
                  disabled={readOnly}
                  value={b.cta ?? ''}
                  onChange={(e) => set(i, { cta: (e.target.value || undefined) as StoryButton['cta'] })}
                >
                  <option value="">Not a call to action</option>
                  {Object.entries(CTA_NAMES).map(([value, words]) => (
                    <option key={value} value={value}>
                      {words}
                    </option>
                  ))}
                </SelectField>
              </div>
              <ActionPicker
                idPrefix={name}
                value={b.action}
                steps={steps}
                chapters={chapters}
                allowSubmit={false}
                readOnly={readOnly}
                onChange={(action) => set(i, { action, ...(kind === 'end' ? { cta: ctaFor(action.type, b.cta) } : {}) })}
              />
            </li>
          );
        })}
      </ol>
      {readOnly ? null : (
        <div className="row story-row-wrap">
          <Button size="sm" icon={<PlusIcon />} disabled={buttons.length >= MAX_BUTTONS} onClick={add}>
            Add button
          </Button>
          {kind === 'chapter_menu' && chapters.length > 0 ? (
            <Button size="sm" variant="ghost" title="One button per chapter, in the chapters' order" onClick={() => onChange(chapterButtons(chapters))}>
              One per chapter
            </Button>
          ) : null}
        </div>
      )}
    </section>
  );
}
