import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { authApi } from '../../api/auth.api';
import { ApiError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { preloadPath } from '../../routing/routes';
import { useSessionState } from '../../session/session-context';
import { AuthLayout, safeNext } from './auth-layout';
import { domainList, signupOpen, useSignupPolicy } from './signup-policy';

export function LoginPage() {
  const { state, signedIn } = useSessionState();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const policy = useSignupPolicy();

  if (state.status === 'signed-in' && !busy) return <Navigate to={next} replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const missing: Record<string, string> = {};
    if (!email.trim()) missing.email = 'Enter your e-mail address';
    if (!password) missing.password = 'Enter your password';
    setFieldErrors(missing);
    setFormError(null);
    if (Object.keys(missing).length > 0) return;
    setBusy(true);
    // The page signed in to loads while the password is checked, not after.
    preloadPath(next);
    try {
      const session = await authApi.login({ email: email.trim(), password });
      signedIn(session);
      navigate(next, { replace: true });
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError) {
        setFieldErrors(err.fieldErrors());
        setFormError(err.details.length > 0 ? null : err.message);
      } else {
        setFormError('Something went wrong. Try again.');
      }
    }
  }

  return (
    <AuthLayout
      title="Sign in"
      subtitle="Welcome back. Sign in to your workspace."
      footer={<SignupFooter policy={policy} />}
    >
      <form className="stack" onSubmit={submit} noValidate>
        {params.get('expired') && !formError ? <Alert tone="info">Your session has ended. Sign in again to continue.</Alert> : null}
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <TextField label="E-mail" type="email" name="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} error={fieldErrors.email} />
        <TextField
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fieldErrors.password}
        />
        <p className="auth-aside">
          <Link to="/forgot-password">Forgot your password?</Link>
        </p>
        <Button type="submit" variant="primary" loading={busy} className="btn-block">
          Sign in
        </Button>
      </form>
    </AuthLayout>
  );
}

/**
 * How a newcomer gets in, as the operator's SIGNUP allows: a link to the sign-up page only where it could
 * succeed. Nothing while the policy loads, so a closed server never flashes a link it would refuse.
 */
function SignupFooter({ policy }: { policy: ReturnType<typeof useSignupPolicy> }) {
  if (!policy) return null;
  if (signupOpen(policy)) {
    return (
      <>
        New to Demoshare? <Link to="/signup">Create an account</Link>
      </>
    );
  }
  if (policy.mode === 'domains') {
    return (
      <>
        Sign-up is open to addresses at {domainList(policy.allowed_domains)}. <Link to="/signup">Create an account</Link>
      </>
    );
  }
  return <>Sign-up is by invitation: ask an admin of your team's workspace to invite you.</>;
}
