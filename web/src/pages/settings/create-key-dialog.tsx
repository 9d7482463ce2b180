import { type FormEvent, useState } from 'react';
import { apiKeysApi } from '../../api/api-keys.api';
import { ApiError } from '../../api/client';
import type { CreatedApiKey, Scope } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { SelectField, TextField } from '../../components/field';
import { ScopePicker } from './scope-picker';

const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '90', label: 'In 90 days' },
  { value: '365', label: 'In 1 year' },
  { value: 'custom', label: 'On a date…' },
];

const DAY_MS = 86_400_000;
const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** The chosen expiry as an instant; a picked date means the end of that day where the user is. */
function expiresAt(choice: string, customDate: string): string | null {
  if (choice === 'never') return null;
  if (choice === 'custom') return customDate ? new Date(`${customDate}T23:59:59.999`).toISOString() : null;
  return new Date(Date.now() + Number(choice) * DAY_MS).toISOString();
}

export function CreateKeyDialog({ onClose, onCreated }: { onClose(): void; onCreated(key: CreatedApiKey): void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expiry, setExpiry] = useState('never');
  const [customDate, setCustomDate] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const problems: Record<string, string> = {};
    if (!name.trim()) problems.name = 'Give the key a name, such as where it is used';
    if (scopes.length === 0) problems.scopes = 'Choose at least one scope';
    if (expiry === 'custom' && !customDate) problems.expires_at = 'Pick the day the key stops working';
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      onCreated(await apiKeysApi.create({ name: name.trim(), scopes, expires_at: expiresAt(expiry, customDate) }));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.details.length > 0) setErrors(err.fieldErrors());
      else setFormError(err instanceof ApiError ? err.message : 'The key could not be created.');
    }
  }

  return (
    <Dialog
      title="Create an API key"
      description={
        <>
          For server-to-server calls to the Demoshare API, sent as <code className="nowrap">Authorization: Bearer &lt;key&gt;</code>.
        </>
      }
      size="lg"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form="create-key-form" variant="primary" loading={busy}>
            Create key
          </Button>
        </>
      }
    >
      <form id="create-key-form" className="stack" onSubmit={submit} noValidate>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <TextField
          label="Name"
          name="name"
          autoComplete="off"
          placeholder="e.g. CRM sync (production)"
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
        />
        <ScopePicker
          value={scopes}
          onChange={(next) => {
            setScopes(next);
            if (next.length > 0) setErrors(({ scopes: _, ...rest }) => rest);
          }}
          error={errors.scopes}
        />
        <div className="field-row">
          <SelectField label="Expires" name="expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)} error={expiry === 'custom' ? undefined : errors.expires_at}>
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </SelectField>
          {expiry === 'custom' ? (
            <TextField
              label="Expiry date"
              type="date"
              name="expires_on"
              min={isoDay(new Date(Date.now() + DAY_MS))}
              value={customDate}
              onChange={(e) => setCustomDate(e.target.value)}
              error={errors.expires_at}
            />
          ) : null}
        </div>
      </form>
    </Dialog>
  );
}
