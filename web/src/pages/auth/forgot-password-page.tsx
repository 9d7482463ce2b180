import { useState } from 'react';
import { Link } from 'react-router';
import { accountApi } from '../../api/account.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type FieldErrors, useFormSubmit } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { AuthLayout } from './auth-layout';
import { useSignupPolicy } from './signup-policy';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  // Unknown while it loads: the page promises an e-mail only once the server says it can send one.
  const delivers = useSignupPolicy()?.email_delivery;
  const form = useFormSubmit({
    validate: (): FieldErrors => (email.trim() ? {} : { email: 'Enter your e-mail address' }),
    send: () => accountApi.requestPasswordReset(email.trim()),
    onDone: ({ message }) => setSent(message),
    failure: 'The link could not be requested. Try again.',
    staysOpen: true,
  });
  return (
    <AuthLayout
      title="Reset your password"
      subtitle={
        delivers === false
          ? 'Enter the address you sign in with to make a link that chooses a new password.'
          : 'Enter the address you sign in with and we will e-mail you a link to choose a new password.'
      }
      footer={
        <>
          Remembered it? <Link to="/login">Sign in</Link>
        </>
      }
    >
      {sent ? (
        <div className="stack">
          <Alert tone={delivers === false ? 'warning' : 'success'}>{sent}</Alert>
          {delivers === false ? null : <p className="muted">Nothing after a few minutes? Check your spam folder, or ask again.</p>}
          <Button onClick={() => setSent(null)}>Ask again</Button>
        </div>
      ) : (
        <form className="stack" onSubmit={form.submit} noValidate>
          {delivers === false ? (
            <Alert tone="warning" title="This server cannot send e-mail">
              The reset link will only be written to the server's log (SMTP is not set up). Ask the person who runs this server for it.
            </Alert>
          ) : null}
          {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
          <FormTextField
            form={form}
            label="E-mail"
            type="email"
            name="email"
            autoComplete="email"
            value={email}
            onValue={setEmail}
          />
          <Button type="submit" variant="primary" loading={form.busy} className="btn-block">
            {delivers === false ? 'Make a reset link' : 'E-mail me a link'}
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
