import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { accountApi } from '../../api/account.api';
import { authApi } from '../../api/auth.api';
import { ApiError } from '../../api/client';
import type { User } from '../../api/types';
import { Alert } from '../../components/alert';
import { LoadingBlock } from '../../components/spinner';
import { useSessionState } from '../../session/session-context';
import { AuthLayout } from './auth-layout';

type Outcome = { status: 'working' } | { status: 'done'; user: User } | { status: 'failed'; message: string };

/** Where a verification link lands: following it is the proof, so the page verifies at once. */
export function VerifyEmailPage() {
  const { token = '' } = useParams();
  const { state, signedIn } = useSessionState();
  const [outcome, setOutcome] = useState<Outcome>({ status: 'working' });
  const started = useRef(false);

  useEffect(() => {
    // After the session is known, so that the session read afterwards (the banner, the account page) is
    // the verified one and no earlier, slower read can overwrite it.
    if (state.status === 'loading') return;
    // Once: the link works once, and a second call (React's development double effect) would find it used.
    if (started.current) return;
    started.current = true;
    accountApi
      .verifyEmail(token)
      .then(async (user) => {
        setOutcome({ status: 'done', user });
        if (state.status === 'signed-in') signedIn(await authApi.session());
      })
      .catch((err: unknown) =>
        setOutcome({ status: 'failed', message: err instanceof ApiError ? err.message : 'The address could not be verified. Try again.' }),
      );
  }, [token, state.status, signedIn]);

  const next = state.status === 'signed-in' ? <Link to="/account">Go to your account</Link> : <Link to="/login">Sign in</Link>;
  return (
    <AuthLayout title="Verify your e-mail address" subtitle="Confirming that this address is yours." footer={next}>
      {outcome.status === 'working' ? <LoadingBlock label="Verifying…" /> : null}
      {outcome.status === 'done' ? (
        <Alert tone="success" title="Address verified">
          Your Demoshare account now uses {outcome.user.email}.
        </Alert>
      ) : null}
      {outcome.status === 'failed' ? (
        <Alert tone="danger" title="This link cannot be used">
          {outcome.message} Signed in, you can send a new link from your account page.
        </Alert>
      ) : null}
    </AuthLayout>
  );
}
