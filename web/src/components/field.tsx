import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';

interface FieldFrame {
  label: string;
  hint?: ReactNode;
  /** The message under the control, usually from the API's `details` for this field. */
  error?: string;
  optional?: boolean;
}

function useFieldIds(error?: string, hint?: ReactNode) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  return { id, hintId, errorId, describedBy };
}

function Frame({ id, label, optional, hint, hintId, error, errorId, children }: FieldFrame & { id: string; hintId?: string; errorId?: string; children: ReactNode }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {label}
        {optional ? <span className="field-optional"> (optional)</span> : null}
      </label>
      {children}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function TextField({ label, hint, error, optional, className, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const ids = useFieldIds(error, hint);
  return (
    <Frame {...ids} label={label} hint={hint} error={error} optional={optional}>
      <input
        id={ids.id}
        className={`input${className ? ` ${className}` : ''}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={ids.describedBy}
        {...input}
      />
    </Frame>
  );
}

export function SelectField({
  label,
  hint,
  error,
  optional,
  children,
  ...select
}: FieldFrame & SelectHTMLAttributes<HTMLSelectElement>) {
  const ids = useFieldIds(error, hint);
  return (
    <Frame {...ids} label={label} hint={hint} error={error} optional={optional}>
      <select id={ids.id} className="input select" aria-invalid={error ? true : undefined} aria-describedby={ids.describedBy} {...select}>
        {children}
      </select>
    </Frame>
  );
}

export function Checkbox({
  label,
  description,
  indeterminate,
  ...input
}: { label: ReactNode; description?: ReactNode; indeterminate?: boolean } & Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const id = useId();
  return (
    <div className="checkbox">
      <input
        id={id}
        type="checkbox"
        ref={(el) => {
          if (el) el.indeterminate = Boolean(indeterminate);
        }}
        aria-describedby={description ? `${id}-desc` : undefined}
        {...input}
      />
      <div className="checkbox-text">
        <label htmlFor={id}>{label}</label>
        {description ? (
          <span className="checkbox-description" id={`${id}-desc`}>
            {description}
          </span>
        ) : null}
      </div>
    </div>
  );
}
