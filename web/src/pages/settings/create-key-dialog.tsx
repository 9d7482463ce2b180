import { useState } from 'react';
import { apiKeysApi } from '../../api/api-keys.api';
import type { CreatedApiKey, Scope } from '../../api/types';
import { SelectField, TextField } from '../../components/field';
import { type FieldErrors, FormDialog, useFormSubmit } from '../../components/form-dialog';
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
  const form = useFormSubmit({
    validate() {
      const problems: FieldErrors = {};
      if (!name.trim()) problems.name = 'Give the key a name, such as where it is used';
      if (scopes.length === 0) problems.scopes = 'Choose at least one scope';
      if (expiry === 'custom' && !customDate) problems.expires_at = 'Pick the day the key stops working';
      return problems;
    },
    send: () => apiKeysApi.create({ name: name.trim(), scopes, expires_at: expiresAt(expiry, customDate) }),
    onDone: onCreated,
    failure: 'The key could not be created.',
  });
  const { errors } = form;

  return (
    <FormDialog
      id="create-key-form"
      title="Create an API key"
      description={
        <>
          For server-to-server calls to the Demoshare API, sent as <code className="nowrap">Authorization: Bearer &lt;key&gt;</code>.
        </>
      }
      size="lg"
      onClose={onClose}
      submitLabel="Create key"
      form={form}
    >
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
          if (next.length > 0) form.clearError('scopes');
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
    </FormDialog>
  );
}
