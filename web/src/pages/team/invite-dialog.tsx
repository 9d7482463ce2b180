import { type FormEvent, useState } from 'react';
import { ROLES } from '../../../../src/auth/permissions';
import { ApiError } from '../../api/client';
import { teamApi } from '../../api/team.api';
import type { Member, Role } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { SelectField, TextField } from '../../components/field';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '../../lib/roles';

export function InviteDialog({ onClose, onInvited }: { onClose(): void; onInvited(member: Member): void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    if (!email.trim()) {
      setErrors({ email: 'Enter the e-mail address of the person to invite' });
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      onInvited(await teamApi.invite({ email: email.trim(), role }));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.code === 'conflict') setErrors({ email: err.message });
      else if (err instanceof ApiError && err.details.length > 0) setErrors(err.fieldErrors());
      else setFormError(err instanceof ApiError ? err.message : 'The invitation could not be sent.');
    }
  }

  return (
    <Dialog
      title="Invite a team member"
      description="They get an e-mail with a link that works once, for a week. They join when they follow it and sign in or sign up with this address."
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form="invite-form" variant="primary" loading={busy}>
            Send invitation
          </Button>
        </>
      }
    >
      <form id="invite-form" className="stack" onSubmit={submit} noValidate>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <TextField label="E-mail" type="email" name="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} error={errors.email} />
        <SelectField label="Role" name="role" value={role} onChange={(e) => setRole(e.target.value as Role)} hint={ROLE_DESCRIPTIONS[role]} error={errors.role}>
          {ROLES.map((r) => (
            <option key={r} value={r}>
              {ROLE_LABELS[r]}
            </option>
          ))}
        </SelectField>
      </form>
    </Dialog>
  );
}
