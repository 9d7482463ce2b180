import type { ReactNode } from 'react';
import { Checkbox } from './field';

interface ChoicePickerProps<T extends string> {
  /** The form field name and the prefix of the hint's and error's ids. */
  name: string;
  legend: string;
  hint: ReactNode;
  options: readonly T[];
  descriptions: Record<T, string>;
  value: readonly T[];
  onChange(value: T[]): void;
  error?: string;
}

/**
 * A list of codes (scopes, event kinds) as checkboxes with what each means, and a “Select all” that shows
 * a mixed state for a partial choice. The value keeps the options' order.
 */
export function ChoicePicker<T extends string>({ name, legend, hint, options, descriptions, value, onChange, error }: ChoicePickerProps<T>) {
  const all = options.every((o) => value.includes(o));
  const toggle = (option: T, on: boolean) => onChange(options.filter((o) => (o === option ? on : value.includes(o))));
  const hintId = `${name}-hint`;
  const errorId = `${name}-error`;
  return (
    <fieldset className={`field choice-picker${error ? ' field-invalid' : ''}`} aria-describedby={error ? errorId : hintId}>
      <legend className="field-label">{legend}</legend>
      <p className="field-hint choice-hint" id={hintId}>
        {hint}
      </p>
      <div className="choice-box">
        <div className="choice-all">
          <Checkbox
            label="Select all"
            checked={all}
            indeterminate={value.length > 0 && !all}
            onChange={(e) => onChange(e.target.checked ? [...options] : [])}
          />
        </div>
        <div className="choice-grid">
          {options.map((option) => (
            <Checkbox
              key={option}
              label={<code>{option}</code>}
              description={descriptions[option]}
              name={name}
              value={option}
              checked={value.includes(option)}
              onChange={(e) => toggle(option, e.target.checked)}
            />
          ))}
        </div>
      </div>
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
