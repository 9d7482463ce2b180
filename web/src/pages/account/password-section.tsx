import { useState } from 'react';
import { accountApi } from '../../api/account.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { useToast } from '../../components/toast';

const EMPTY = { current: '', next: '', confirm: '' };

export function PasswordSection() {
  const notify = useToast();
  const [values, setValues] = useState(EMPTY);
  const form = useFormSubmit({
    validate: () => {
      const problems: Record<string, string> = {};
      if (!values.current) problems.current_password = 'Enter your current password';
      if (values.next.length < 10) problems.new_password = 'Use at least 10 characters';
      else if (values.confirm !== values.next) problems.confirm = 'The two new passwords differ';
      return problems;
    },
    send: () => accountApi.changePassword({ current_password: values.current, new_password: values.next }),
    onDone: ({ ended_sessions }) => {
      setValues(EMPTY);
      const others = ended_sessions === 1 ? '1 other session was' : `${ended_sessions} other sessions were`;
      notify(ended_sessions > 0 ? `Password changed. ${others} signed out.` : 'Password changed.');
    },
    failure: 'Your password could not be changed. Try again.',
    staysOpen: true,
  });
  const field = (key: keyof typeof EMPTY, name: string) => ({
    name,
    type: 'password',
    value: values[key],
    error: form.errors[name],
    onChange: (e: { target: { value: string } }) => {
      setValues((v) => ({ ...v, [key]: e.target.value }));
      form.clearError(name);
    },
  });
  return (
    <section className="card" aria-labelledby="password-heading">
      <div className="card-header">
        <h2 id="password-heading">Password</h2>
        <p className="muted">Changing it signs you out on every other device.</p>
      </div>
      <div className="card-body">
      <form className="stack form-narrow" onSubmit={form.submit} noValidate>
        {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
        <TextField label="Current password" autoComplete="current-password" {...field('current', 'current_password')} />
        <TextField label="New password" autoComplete="new-password" hint="At least 10 characters." {...field('next', 'new_password')} />
        <TextField label="Repeat the new password" autoComplete="new-password" {...field('confirm', 'confirm')} />
        <div>
          <Button type="submit" variant="primary" loading={form.busy}>
            Change password
          </Button>
        </div>
      </form>
      </div>
    </section>
  );
}
