import { useId, useRef, useState } from 'react';
import { Button } from './button';
import { CheckIcon, CopyIcon } from './icons';

/**
 * A read-only value with a copy button, for secrets shown once. `copyLabel` names the button for assistive
 * technology when a dialog has several copy buttons (“Copy signing secret” rather than “Copy” twice).
 */
export function CopyField({ label, value, copyLabel }: { label: string; value: string; copyLabel?: string }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      // No clipboard access (insecure origin, denied permission): select it so Ctrl+C works.
      input.current?.select();
      setState('failed');
    }
  }

  return (
    <div className="field">
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <div className="copy-field">
        <input ref={input} id={id} className="input mono" readOnly value={value} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        <Button
          variant="primary"
          onClick={copy}
          icon={state === 'copied' ? <CheckIcon /> : <CopyIcon />}
          aria-label={copyLabel ? `${state === 'copied' ? 'Copied' : 'Copy'} ${copyLabel}` : undefined}
          data-autofocus
        >
          {state === 'copied' ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <p className="field-hint" aria-live="polite">
        {state === 'failed' ? 'Copying is blocked in this browser: the text is selected, press Ctrl+C (⌘C).' : state === 'copied' ? 'Copied to the clipboard.' : ''}
      </p>
    </div>
  );
}
