import { ROLES } from '../../../../src/auth/permissions';
import type { Role } from '../../api/types';
import { ROLE_LABELS } from '../../lib/roles';

export function RoleSelect({ label, value, disabled, onChange }: { label: string; value: Role; disabled?: boolean; onChange(role: Role): void }) {
  return (
    <select className="input select select-compact" aria-label={label} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as Role)}>
      {ROLES.map((r) => (
        <option key={r} value={r}>
          {ROLE_LABELS[r]}
        </option>
      ))}
    </select>
  );
}
