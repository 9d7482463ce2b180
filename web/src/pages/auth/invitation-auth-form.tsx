import { type FormEvent, useState } from 'react';
import { authApi } from '../../api/auth.api';
import { ApiError } from '../../api/client';
import type { InvitationPreview, Session } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';

/**
 * Sign up or sign in with the invited address, sending the invitation's token along: the server joins
 * the workspace in the same step, and only for that address, so the address field is fixed.
 */
export function InvitationAuthForm({ token, invitation, onJoined }: { token: string; invitation: InvitationPreview; onJoined(session: Session): void }) {
  const [mode, setMode] = useState<'signup' | 'login'>('signup');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    if (!password) {
      setFieldErrors({ password: mode === 'signup' ? 'Choose a password' : 'Enter your password' });
      return;
    }
    setFieldErrors({});
    setBusy(true);
    try {
      const body = { email: invitation.email, password, invitation_token: token };
      onJoined(mode === 'signup' ? await authApi.signup({ ...body, name: name.trim() || undefined }) : await authApi.login(body));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.code === 'conflict' && mode === 'signup') {
        setMode('login');
        setFormError('You already have an account with this address: sign in to accept.');
      } else if (err instanceof ApiError && err.details.length > 0) {
        setFieldErrors(err.fieldErrors());
      } else {
        setFormError(err instanceof ApiError ? err.message : 'Something went wrong. Try again.');
      }
    }
  }

  const switchMode = () => {
    setMode(mode === 'signup' ? 'login' : 'signup');
    setFormError(null);
    setFieldErrors({});
  };

  return (
    <form className="stack" onSubmit={submit} noValidate>
      {formError ? <Alert tone={mode === 'login' && formError.startsWith('You already') ? 'info' : 'danger'}>{formError}</Alert> : null}
      <TextField label="E-mail" type="email" name="email" value={invitation.email} readOnly hint="The invitation is for this address." />
      {mode === 'signup' ? <TextField label="Your name" name="name" autoComplete="name" optional value={name} onChange={(e) => setName(e.target.value)} error={fieldErrors.name} /> : null}
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
        hint={mode === 'signup' ? 'At least 10 characters.' : undefined}
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fieldErrors.password}
      />
      <Button type="submit" variant="primary" loading={busy} className="btn-block">
        {mode === 'signup' ? `Create account and join ${invitation.workspace.name}` : `Sign in and join ${invitation.workspace.name}`}
      </Button>
      <p className="muted auth-switch">
        {mode === 'signup' ? 'Already have an account? ' : 'New to Demoshare? '}
        <button type="button" className="link-button" onClick={switchMode}>
          {mode === 'signup' ? 'Sign in instead' : 'Create an account instead'}
        </button>
      </p>
    </form>
  );
}
