import { useEffect, useId, useState } from 'react';
import type { FormField, StoryForm } from '../../api/types';
import { Button } from '../../components/button';
import { Checkbox, SelectField } from '../../components/field';
import { PlusIcon } from '../../components/icons';
import { StoryTextField } from './story-text';
import { useLocalEdit } from './use-local-edit';

const MAX_FIELDS = 20;
const TYPE_NAMES: Record<FormField['type'], string> = {
  text: 'Text',
  email: 'E-mail',
  phone: 'Phone',
  select: 'Choice (list)',
  checkbox: 'Checkbox (consent)',
  hidden: 'Hidden (from the link)',
};
const NAME = /^[a-z][a-z0-9_]{0,39}$/;

/** A field name from its label: `Work e-mail` → `work_e_mail`, unique in the form. */
function nameFor(label: string, fields: FormField[], except?: number): string {
  const base =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^[^a-z]+|_+$/g, '')
      .slice(0, 36) || 'field';
  const used = new Set(fields.filter((_, i) => i !== except).map((f) => f.name));
  if (!used.has(base)) return base;
  for (let i = 2; ; i++) if (!used.has(`${base}_${i}`)) return `${base}_${i}`;
}

/** A new field of `type`, with words that make sense for it. */
function newField(type: FormField['type'], fields: FormField[]): FormField {
  const start: Record<FormField['type'], Omit<FormField, 'name' | 'type'>> = {
    text: { label: 'Company', required: false },
    email: { label: 'E-mail', required: true },
    phone: { label: 'Phone', required: false },
    select: { label: 'Team size', required: false, options: ['1-10', '11-50', '51-200', '200+'] },
    checkbox: { label: 'I agree to be contacted about this product.', required: true },
    hidden: { label: '', required: false, param: 'utm_source' },
  };
  const field = { ...start[type], type } as FormField;
  const name = type === 'email' ? 'email' : type === 'hidden' ? 'utm_source' : type === 'checkbox' ? 'consent' : field.label;
  return { ...field, name: nameFor(name, fields) };
}

/**
 * The form of a form step: its fields (text, e-mail, phone, a list of choices, a consent checkbox, a hidden
 * field filled from a URL parameter), required or not, the submit button's words, and whether it stands in
 * for the identification gate or may be skipped. Each change hands the whole form to `onChange`.
 */
export function FormBuilder({
  form: saved,
  readOnly,
  busy,
  onChange: save,
}: {
  form: StoryForm;
  readOnly: boolean;
  /** A change of the demo is on its way: the saved form may be older than what is shown. */
  busy: boolean;
  onChange(form: StoryForm): void;
}) {
  // Shown as changed at once (a ticked box stays ticked), and as saved once no change is on its way.
  const [form, setForm] = useLocalEdit(saved, busy);
  const onChange = (next: StoryForm) => {
    setForm(next);
    save(next);
  };
  const fields = form.fields;
  const setField = (i: number, patch: Partial<FormField>) => onChange({ ...form, fields: fields.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  const move = (from: number, to: number) => {
    const next = [...fields];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    onChange({ ...form, fields: next });
  };
  const [adding, setAdding] = useState<FormField['type']>('text');
  return (
    <section className="panel" aria-label="Form">
      <h2 className="panel-title">Form</h2>
      <ol className="story-buttons">
        {fields.map((f, i) => {
          const name = `field ${i + 1}`;
          return (
            <li key={f.name} className="story-button-item" aria-label={`Field ${i + 1}: ${f.label || f.name}`}>
              <div className="story-button-head">
                <strong>
                  {i + 1}. {TYPE_NAMES[f.type]}
                  {f.required ? ' · required' : ''}
                </strong>
                {readOnly ? null : (
                  <span className="step-tools">
                    <button type="button" className="icon-button" aria-label={`Move ${name} up`} disabled={i === 0} onClick={() => move(i, i - 1)}>
                      ↑
                    </button>
                    <button type="button" className="icon-button" aria-label={`Move ${name} down`} disabled={i === fields.length - 1} onClick={() => move(i, i + 1)}>
                      ↓
                    </button>
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={`Remove ${name}`}
                      disabled={fields.length === 1}
                      title={fields.length === 1 ? 'A form keeps at least one field' : undefined}
                      onClick={() => onChange({ ...form, fields: fields.filter((_, j) => j !== i) })}
                    >
                      ×
                    </button>
                  </span>
                )}
              </div>
              {f.type === 'hidden' ? null : (
                <StoryTextField
                  label={f.type === 'checkbox' ? 'Consent text' : 'Label'}
                  which={name}
                  value={f.label}
                  maxLength={300}
                  multiline={f.type === 'checkbox'}
                  readOnly={readOnly}
                  onCommit={(label) => setField(i, { label })}
                />
              )}
              <FieldName field={f} readOnly={readOnly} which={name} onCommit={(n) => setField(i, { name: n })} taken={fields.filter((_, j) => j !== i).map((x) => x.name)} />
              {f.type === 'text' || f.type === 'email' || f.type === 'phone' ? (
                <StoryTextField
                  label="Placeholder (optional)"
                  which={name}
                  value={f.placeholder ?? ''}
                  maxLength={120}
                  readOnly={readOnly}
                  onCommit={(t) => setField(i, { placeholder: t.trim() ? t : undefined })}
                />
              ) : null}
              {f.type === 'select' ? (
                <StoryTextField
                  label="Choices, one a line"
                  which={name}
                  multiline
                  value={(f.options ?? []).join('\n')}
                  readOnly={readOnly}
                  required
                  onCommit={(t) => {
                    const options = t
                      .split('\n')
                      .map((o) => o.trim())
                      .filter(Boolean)
                      .slice(0, 50);
                    if (options.length) setField(i, { options });
                  }}
                />
              ) : null}
              {f.type === 'hidden' ? (
                <StoryTextField
                  label="URL parameter"
                  which={name}
                  value={f.param ?? f.name}
                  maxLength={60}
                  required
                  readOnly={readOnly}
                  onCommit={(param) => setField(i, { param: param.trim() })}
                />
              ) : (
                <Checkbox label={<>Required<span className="visually-hidden"> ({name})</span></>} disabled={readOnly} checked={f.required} onChange={(e) => setField(i, { required: e.target.checked })} />
              )}
            </li>
          );
        })}
      </ol>
      {readOnly ? null : (
        <div className="row story-add-field">
          <SelectField label="New field" value={adding} onChange={(e) => setAdding(e.target.value as FormField['type'])}>
            {Object.entries(TYPE_NAMES).map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </SelectField>
          <Button size="sm" icon={<PlusIcon />} disabled={fields.length >= MAX_FIELDS} onClick={() => onChange({ ...form, fields: [...fields, newField(adding, fields)] })}>
            Add field
          </Button>
        </div>
      )}
      <StoryTextField label="Submit button" value={form.submit_label} required maxLength={80} variables readOnly={readOnly} onCommit={(submit_label) => onChange({ ...form, submit_label })} />
      <Checkbox
        label="Use as the identification gate"
        description="A viewer who sends it counts as identified, as with the link's gate."
        disabled={readOnly}
        checked={form.gate}
        onChange={(e) => onChange({ ...form, gate: e.target.checked, skippable: e.target.checked ? false : form.skippable })}
      />
      <Checkbox
        label="Can be skipped"
        description={form.gate ? 'A gate cannot be skipped.' : 'Offers a “Skip” button.'}
        disabled={readOnly || form.gate}
        checked={form.skippable && !form.gate}
        onChange={(e) => onChange({ ...form, skippable: e.target.checked })}
      />
    </section>
  );
}

/** A field's name (the key of its value in leads, and a variable): checked before it is saved. */
function FieldName({ field, which, taken, readOnly, onCommit }: { field: FormField; which: string; taken: string[]; readOnly: boolean; onCommit(name: string): void }) {
  const id = useId();
  const [text, setText] = useState(field.name);
  useEffect(() => setText(field.name), [field.name]);
  const error = !NAME.test(text)
    ? 'A lowercase letter first, then letters, digits or _ (at most 40).'
    : taken.includes(text)
      ? 'Another field has this name.'
      : undefined;
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        Name<span className="visually-hidden"> ({which})</span>
      </label>
      <input
        id={id}
        className="input"
        value={text}
        readOnly={readOnly}
        aria-invalid={error ? true : undefined}
        onChange={(e) => setText(e.target.value)}
        onBlur={() => {
          if (!error && text !== field.name) onCommit(text);
        }}
        onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
      />
      {error ? <p className="field-error">{error}</p> : <p className="field-hint">Its value in leads; also the variable {`{{${text}}}`}.</p>}
    </div>
  );
}
