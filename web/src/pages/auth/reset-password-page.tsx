import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { accountApi } from '../../api/account.api';
import type { ApiError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type FieldErrors, useFormSubmit } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { useToast } from '../../components/toast';
import { useSessionState } from '../../session/session-context';
import { AuthLayout } from './auth-layout';

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const notify = useToast();
  const { state, signOut } = useSessionState();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [deadLink, setDeadLink] = useState<string | null>(null);
  const form = useFormSubmit({
    validate: (): FieldErrors => {
      if (password.length < 10) return { password: 'Use at least 10 characters' };
      return confirm === password ? {} : { confirm: 'The two passwords differ' };
    },
    send: () => accountApi.resetPassword(token, password),
    onDone: async () => {
      // Every session of the account ended, this browser's included.
      if (state.status === 'signed-in') await signOut().catch(() => {});
      notify('Password changed. Sign in with the new one.');
      navigate('/login', { replace: true });
    },
    failure: 'Your password could not be changed. Try again.',
    fieldErrors: (err: ApiError) => {
      if (err.status === 404 || err.status === 410 || err.details.some((d) => d.field === 'token')) {
        setDeadLink(err.message);
        return {};
      }
      return err.details.length > 0 ? err.fieldErrors() : null;
    },
  });
  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="You will be signed out everywhere, then sign in with the new password."
      footer={<Link to="/login">Back to sign-in</Link>}
    >
      {deadLink ? (
        <div className="stack">
          <Alert tone="danger" title="This link cannot be used">
            {deadLink}
          </Alert>
          <Link to="/forgot-password" className="btn btn-primary btn-block">
            Ask for a new link
          </Link>
        </div>
      ) : (
        <form className="stack" onSubmit={form.submit} noValidate>
          {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
          <FormTextField
            form={form}
            label="New password"
            type="password"
            name="password"
            autoComplete="new-password"
            hint="At least 10 characters."
            value={password}
            onValue={setPassword}
          />
          <FormTextField
            form={form}
            label="Repeat it"
            type="password"
            name="confirm"
            autoComplete="new-password"
            value={confirm}
            onValue={setConfirm}
          />
          <Button type="submit" variant="primary" loading={form.busy} className="btn-block">
            Set the new password
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
