import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { authApi } from '../../api/auth.api';
import { WORKSPACE_NAME_MAX } from '../../api/workspace.api';
import { ApiError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { useSessionState } from '../../session/session-context';
import { AuthLayout } from './auth-layout';
import { domainList, signupOpen, useSignupPolicy } from './signup-policy';

export function SignupPage() {
  const { state, signedIn } = useSessionState();
  const navigate = useNavigate();
  const [form, setForm] = useState({ name: '', email: '', password: '', workspace_name: '' });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const policy = useSignupPolicy();

  if (state.status === 'signed-in' && !busy) return <Navigate to="/demos" replace />;
  if (policy && !signupOpen(policy) && policy.mode === 'invite') return <ByInvitation />;
  const domains = policy && !signupOpen(policy) && policy.mode === 'domains' ? policy.allowed_domains : null;

  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    if (!form.email.trim()) {
      setFieldErrors({ email: 'Enter your e-mail address' });
      return;
    }
    setFieldErrors({});
    setBusy(true);
    try {
      const session = await authApi.signup({
        email: form.email.trim(),
        password: form.password,
        name: form.name.trim() || undefined,
        workspace_name: form.workspace_name.trim() || undefined,
      });
      signedIn(session);
      navigate('/demos', { replace: true });
    } catch (err) {
      setBusy(false);
      if (!(err instanceof ApiError)) {
        setFormError('Something went wrong. Try again.');
      } else if (err.code === 'conflict') {
        setFieldErrors({ email: err.message });
      } else if (err.details.length > 0) {
        setFieldErrors(err.fieldErrors());
      } else {
        setFormError(err.message);
      }
    }
  }

  return (
    <AuthLayout
      title="Create your workspace"
      subtitle="Host interactive demos and share them with a link."
      footer={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <form className="stack" onSubmit={submit} noValidate>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <TextField label="Your name" name="name" autoComplete="name" optional value={form.name} onChange={set('name')} error={fieldErrors.name} />
        <TextField
          label="Work e-mail"
          type="email"
          name="email"
          autoComplete="email"
          hint={domains ? `Sign-up is open to addresses at ${domainList(domains)}.` : undefined}
          value={form.email}
          onChange={set('email')}
          error={fieldErrors.email}
        />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          hint="At least 10 characters."
          value={form.password}
          onChange={set('password')}
          error={fieldErrors.password}
        />
        <TextField
          label="Workspace name"
          name="workspace_name"
          autoComplete="organization"
          optional
          hint="Usually your company or team name."
          value={form.workspace_name}
          maxLength={WORKSPACE_NAME_MAX}
          onChange={set('workspace_name')}
          error={fieldErrors.workspace_name}
        />
        <Button type="submit" variant="primary" loading={busy} className="btn-block">
          Create account
        </Button>
      </form>
    </AuthLayout>
  );
}

/** The sign-up page of a server that takes new accounts only through invitations: how to get in instead of a form. */
function ByInvitation() {
  return (
    <AuthLayout
      title="Sign-up is by invitation"
      subtitle="New accounts on this Demoshare server are made through an invitation link."
      footer={
        <>
          Already have an account? <Link to="/login">Sign in</Link>
        </>
      }
    >
      <p>Ask an admin of your team's workspace to invite you: the invitation e-mail has a link that creates your account and joins the workspace.</p>
    </AuthLayout>
  );
}
