import { useEffect, useState } from 'react';
import type { ActionType, Chapter, Step, StoryAction } from '../../api/types';
import { SelectField, TextField } from '../../components/field';
import { isHttpUrl } from './story';

const ACTION_NAMES: Record<ActionType, string> = {
  next: 'Go to the next step',
  goto: 'Go to a step',
  chapter: 'Go to a chapter',
  url: 'Open a link (new tab)',
  submit: 'Submit the form',
  end: 'End the demo',
  restart: 'Restart the demo',
  demo: 'Play another demo',
};

const addressOf = (a: StoryAction) => (a.type === 'url' || a.type === 'demo' ? String(a.target ?? '') : '');

/**
 * What a hotspot or a button does: every action type, with its target (a step, a chapter, an address).
 * `submit` is offered on form steps only. An address is saved when it is a valid http(s) one, when the
 * field is left; until then it says what is wrong.
 */
export function ActionPicker({
  value,
  onChange,
  steps,
  chapters,
  allowSubmit,
  readOnly,
  label = 'On click',
  idPrefix,
}: {
  value: StoryAction;
  onChange(action: StoryAction): void;
  steps: Step[];
  chapters: Chapter[];
  allowSubmit: boolean;
  readOnly: boolean;
  label?: string;
  /** Tells apart the pickers of several buttons in one panel (their fields' labels). */
  idPrefix?: string;
}) {
  const types = (Object.keys(ACTION_NAMES) as ActionType[]).filter((t) => t !== 'submit' || allowSubmit || value.type === 'submit');
  const [address, setAddress] = useState(addressOf(value));
  // Only a different saved address replaces what is typed: a reload of the demo (after any other save)
  // brings the same address back as a new object, and would wipe an address being typed.
  const savedAddress = addressOf(value);
  useEffect(() => setAddress(savedAddress), [savedAddress]);
  const [error, setError] = useState<string | undefined>();
  const name = (words: string) => (idPrefix ? { label: words, 'aria-label': `${words} (${idPrefix})` } : { label: words });

  const pick = (type: ActionType) => {
    setError(undefined);
    if (type === 'goto') onChange({ type, target: steps[0]?.number ?? 1 });
    else if (type === 'chapter') onChange({ type, target: chapters[0]?.id ?? null });
    else if (type === 'url' || type === 'demo') {
      // The address comes next: the type is kept with the old address when it was one, else left to type.
      const kept = addressOf(value);
      if (kept) onChange({ type, target: kept });
      else {
        setAddress('https://');
        setPending(type);
      }
    } else onChange({ type, target: null });
    if (type !== 'url' && type !== 'demo') setPending(null);
  };
  // A link type chosen whose address is not typed yet: shown, not saved (the API needs an address).
  const [pending, setPending] = useState<'url' | 'demo' | null>(null);
  const shownType = pending ?? value.type;

  const saveAddress = () => {
    const type = pending ?? (value.type === 'url' || value.type === 'demo' ? value.type : null);
    if (!type) return;
    const text = address.trim();
    if (!isHttpUrl(text)) {
      setError('Type a web address starting with https:// (or http://).');
      return;
    }
    setError(undefined);
    setPending(null);
    if (text !== addressOf(value) || type !== value.type) onChange({ type, target: text });
  };

  return (
    <div className="action-picker">
      <SelectField {...name(label)} disabled={readOnly} value={shownType} onChange={(e) => pick(e.target.value as ActionType)}>
        {types.map((t) => (
          <option key={t} value={t}>
            {ACTION_NAMES[t]}
          </option>
        ))}
      </SelectField>
      {shownType === 'goto' ? (
        <SelectField
          {...name('Step')}
          disabled={readOnly}
          value={String(value.target ?? '')}
          onChange={(e) => onChange({ type: 'goto', target: Number(e.target.value) })}
        >
          {steps.map((s) => (
            <option key={s.id} value={s.number}>
              {s.number}. {s.title || 'Untitled step'}
            </option>
          ))}
        </SelectField>
      ) : null}
      {shownType === 'chapter' ? (
        chapters.length === 0 ? (
          <p className="field-hint">No chapters yet: create one in the Chapters panel.</p>
        ) : (
          <SelectField
            {...name('Chapter')}
            disabled={readOnly}
            value={String(value.target ?? '')}
            onChange={(e) => onChange({ type: 'chapter', target: e.target.value })}
          >
            {value.target ? null : <option value="">Choose a chapter</option>}
            {chapters.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </SelectField>
        )
      ) : null}
      {shownType === 'url' || shownType === 'demo' ? (
        <TextField
          {...name(shownType === 'url' ? 'Address' : 'Share link of the demo')}
          type="url"
          inputMode="url"
          readOnly={readOnly}
          value={address}
          error={error}
          hint={shownType === 'demo' ? 'The link of another demo, from its Share dialog.' : undefined}
          onChange={(e) => setAddress(e.target.value)}
          onBlur={saveAddress}
          onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
        />
      ) : null}
    </div>
  );
}
