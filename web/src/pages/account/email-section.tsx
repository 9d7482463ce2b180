import { useState } from 'react';
import { accountApi } from '../../api/account.api';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { useFormSubmit } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { MailSetupHint } from '../../layout/mail-setup-hint';
import { useSession } from '../../session/session-context';
import { useResendVerification } from '../../session/use-resend-verification';

export function EmailSection() {
  const { user, email_delivery: delivers } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const { resend, sending: resending } = useResendVerification();
  const form = useFormSubmit({
    validate: () => {
      const problems: Record<string, string> = {};
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.trim())) problems.email = 'Enter an e-mail address';
      else if (email.trim().toLowerCase() === user.email) problems.email = 'This is your current address';
      if (!password) problems.current_password = 'Enter your password';
      return problems;
    },
    send: () => accountApi.changeEmail({ email: email.trim(), current_password: password }),
    onDone: ({ message }) => {
      setPending(message);
      setEmail('');
      setPassword('');
    },
    failure: 'The change could not be started. Try again.',
    staysOpen: true,
  });

  return (
    <section className="card" aria-labelledby="email-heading">
      <div className="card-header">
        <h2 id="email-heading">E-mail address</h2>
      </div>
      <div className="stack card-body">
        <p className="row row-wrap wrap-anywhere">
          <strong>{user.email}</strong>
          {user.email_verified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Not verified</Badge>}
        </p>
        {user.email_verified || delivers ? null : (
          <Alert tone="warning">
            This server cannot send e-mail, so the verification link is only in the server's log. <MailSetupHint />
          </Alert>
        )}
        {user.email_verified || !delivers ? null : (
          <Alert tone="warning">
            <div className="row row-wrap">
              <span>Follow the link we e-mailed to this address to verify it.</span>
              <Button size="sm" onClick={resend} loading={resending}>
                Send the link again
              </Button>
            </div>
          </Alert>
        )}
        {pending ? <Alert tone="info">{pending}</Alert> : null}
        <form className="stack form-narrow" onSubmit={form.submit} noValidate>
          <h3 className="subheading">Change your address</h3>
          {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
          <FormTextField
            form={form}
            label="New address"
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onValue={setEmail}
          />
          <FormTextField
            form={form}
            label="Your password"
            name="current_password"
            type="password"
            autoComplete="current-password"
            value={password}
            onValue={setPassword}
          />
          <div>
            <Button type="submit" loading={form.busy}>
              Send a confirmation link
            </Button>
          </div>
        </form>
      </div>
    </section>
  );
}
