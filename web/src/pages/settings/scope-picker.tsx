import { SCOPE_DESCRIPTIONS, SCOPES } from '../../../../src/auth/permissions';
import type { Scope } from '../../api/types';
import { ChoicePicker } from '../../components/choice-picker';

/**
 * Every scope as a checkbox (the contract's eight, then Demoshare's `oauth_apps:write` and `audit:read`), with a
 * "select all" that shows a mixed state for a partial choice.
 */
export function ScopePicker({ value, onChange, error }: { value: Scope[]; onChange(scopes: Scope[]): void; error?: string }) {
  return (
    <ChoicePicker
      name="scopes"
      legend="Scopes"
      hint="What the key may do. A key never does more than its owner’s role allows."
      options={SCOPES}
      descriptions={SCOPE_DESCRIPTIONS}
      value={value}
      onChange={onChange}
      error={error}
    />
  );
}
