import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { EditorMenu } from './editor-menu';

const NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** `{{name}}` or `{{name|fallback}}` (the fallback without braces or a pipe, which would end it). */
export function variableToken(name: string, fallback: string): string {
  const clean = fallback.replace(/[{}|]/g, '').trim();
  return clean ? `{{${name}|${clean}}}` : `{{${name}}}`;
}

/**
 * "Insert variable": the usual names (first name, company with a fallback), or any name with a fallback.
 * `onInsert` gets the token to put at the caret.
 */
export function VariableMenu({ onInsert, disabled }: { onInsert(token: string): void; disabled?: boolean }) {
  const [custom, setCustom] = useState(false);
  const [name, setName] = useState('');
  const [fallback, setFallback] = useState('');
  const id = useId();
  if (disabled) return null;
  const valid = NAME.test(name);
  return (
    <div className="variable-menu">
      <EditorMenu
        label="Insert variable"
        menuLabel="Variables"
        actions={[
          { label: 'First name: {{first_name|there}}', onSelect: () => onInsert('{{first_name|there}}') },
          { label: 'Company: {{company|your team}}', onSelect: () => onInsert('{{company|your team}}') },
          { label: 'Another name…', onSelect: () => setCustom(true) },
        ]}
      />
      {custom ? (
        <fieldset className="variable-custom" aria-label="Custom variable">
          <label htmlFor={`${id}-name`}>Name</label>
          <input
            id={`${id}-name`}
            className="input"
            value={name}
            placeholder="job_title"
            aria-invalid={name !== '' && !valid}
            onChange={(e) => setName(e.target.value.trim().toLowerCase())}
          />
          <label htmlFor={`${id}-fallback`}>Fallback</label>
          <input id={`${id}-fallback`} className="input" value={fallback} placeholder="shown when unknown" onChange={(e) => setFallback(e.target.value)} />
          {name !== '' && !valid ? <p className="field-error">A lowercase letter first, then letters, digits or _.</p> : null}
          <div className="row">
            <Button
              size="sm"
              variant="primary"
              disabled={!valid}
              onClick={() => {
                onInsert(variableToken(name, fallback));
                setCustom(false);
                setName('');
                setFallback('');
              }}
            >
              Insert
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setCustom(false)}>
              Cancel
            </Button>
          </div>
        </fieldset>
      ) : null}
    </div>
  );
}

/**
 * A text field saved when it is left (or on Enter), only when its text changed; with "Insert variable"
 * when `variables` is set, which puts the token at the caret and saves.
 */
export function StoryTextField({
  label,
  which,
  value,
  onCommit,
  readOnly,
  variables,
  multiline,
  maxLength,
  placeholder,
  required,
}: {
  label: string;
  /** Which of several alike fields this is ("button 2"): in its name for assistive technology, not shown. */
  which?: string;
  value: string;
  onCommit(text: string): void;
  readOnly: boolean;
  variables?: boolean;
  multiline?: boolean;
  maxLength?: number;
  placeholder?: string;
  /** An empty text is not saved (the API needs one): the field goes back to the saved text. */
  required?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const input = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const caret = useRef<number | null>(null);
  const root = useRef<HTMLDivElement>(null);
  const commit = (next: string) => {
    if (required && next.trim() === '') {
      setText(value);
      return;
    }
    if (next !== value) onCommit(next);
  };
  const props = {
    id,
    className: multiline ? 'input textarea' : 'input',
    value: text,
    readOnly,
    maxLength,
    placeholder,
    onChange: (e: { target: { value: string } }) => setText(e.target.value),
    onBlur: (e: { target: { selectionStart: number | null }; relatedTarget: EventTarget | null }) => {
      caret.current = e.target.selectionStart;
      // To "Insert variable": saved with the variable, at the caret.
      if (root.current?.contains(e.relatedTarget as Node | null)) return;
      commit(text);
    },
  };
  return (
    <div className="field story-text-field" ref={root}>
      <div className="story-text-label">
        <label className="field-label" htmlFor={id}>
          {label}
          {which ? <span className="visually-hidden"> ({which})</span> : null}
        </label>
        {variables ? (
          <VariableMenu
            disabled={readOnly}
            onInsert={(token) => {
              const at = caret.current ?? text.length;
              const next = `${text.slice(0, at)}${token}${text.slice(at)}`;
              setText(next);
              commit(next);
            }}
          />
        ) : null}
      </div>
      {multiline ? (
        <textarea ref={input} rows={3} {...props} />
      ) : (
        <input ref={input} {...props} onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()} />
      )}
    </div>
  );
}
