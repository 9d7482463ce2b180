import { SCOPE_DESCRIPTIONS, SCOPES } from '../../../../src/auth/permissions';
import type { Scope } from '../../api/types';
import { Checkbox } from '../../components/field';
import './api-keys.css';

/** The eight scopes as checkboxes, with a "select all" that shows a mixed state for a partial choice. */
export function ScopePicker({ value, onChange, error }: { value: Scope[]; onChange(scopes: Scope[]): void; error?: string }) {
  const all = value.length === SCOPES.length;
  const toggle = (scope: Scope, on: boolean) => onChange(SCOPES.filter((s) => (s === scope ? on : value.includes(s))));

  return (
    <fieldset className={`field scope-picker${error ? ' field-invalid' : ''}`} aria-describedby={error ? 'scope-error' : undefined}>
      <legend className="field-label">Scopes</legend>
      <p className="field-hint scope-hint">What the key may do. A key never does more than its owner’s role allows.</p>
      <div className="scope-box">
      <div className="scope-all">
        <Checkbox
          label="Select all"
          checked={all}
          indeterminate={value.length > 0 && !all}
          onChange={(e) => onChange(e.target.checked ? [...SCOPES] : [])}
        />
      </div>
      <div className="scope-grid">
        {SCOPES.map((scope) => (
          <Checkbox
            key={scope}
            label={<code>{scope}</code>}
            description={SCOPE_DESCRIPTIONS[scope]}
            name="scopes"
            value={scope}
            checked={value.includes(scope)}
            onChange={(e) => toggle(scope, e.target.checked)}
          />
        ))}
      </div>
      </div>
      {error ? (
        <p className="field-error" id="scope-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
