import { useState } from 'react';
import { Link } from 'react-router';
import { accountApi } from '../../api/account.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { type FieldErrors, useFormSubmit } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { AuthLayout } from './auth-layout';

export function ForgotPasswordPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<string | null>(null);
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
      subtitle="Enter the address you sign in with and we will e-mail you a link to choose a new password."
      footer={
        <>
          Remembered it? <Link to="/login">Sign in</Link>
        </>
      }
    >
      {sent ? (
        <div className="stack">
          <Alert tone="success">{sent}</Alert>
          <p className="muted">Nothing after a few minutes? Check your spam folder, or ask again.</p>
          <Button onClick={() => setSent(null)}>Ask again</Button>
        </div>
      ) : (
        <form className="stack" onSubmit={form.submit} noValidate>
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
            E-mail me a link
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}
