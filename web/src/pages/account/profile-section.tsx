import { useState } from 'react';
import { accountApi } from '../../api/account.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type FieldErrors, useFormSubmit } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { useToast } from '../../components/toast';
import { useSession } from '../../session/session-context';
import { useRefreshSession } from './use-refresh-session';

export function ProfileSection() {
  const { user } = useSession();
  const refresh = useRefreshSession();
  const notify = useToast();
  const [name, setName] = useState(user.name);
  const form = useFormSubmit({
    validate: (): FieldErrors => (name.trim().length > 120 ? { name: 'Use at most 120 characters' } : {}),
    send: () => accountApi.updateProfile({ name: name.trim() }),
    onDone: async () => {
      await refresh();
      notify('Profile saved');
    },
    failure: 'Your profile could not be saved. Try again.',
    staysOpen: true,
  });
  return (
    <section className="card" aria-labelledby="profile-heading">
      <div className="card-header">
        <h2 id="profile-heading">Profile</h2>
      </div>
      <div className="card-body">
      <form className="stack form-narrow" onSubmit={form.submit} noValidate>
        {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
        <FormTextField
          form={form}
          label="Name"
          name="name"
          autoComplete="name"
          hint="Shown to your team and on invitations you send."
          value={name}
          maxLength={120}
          onValue={setName}
        />
        <div>
          <Button type="submit" variant="primary" loading={form.busy} disabled={name.trim() === user.name}>
            Save
          </Button>
        </div>
      </form>
      </div>
    </section>
  );
}
