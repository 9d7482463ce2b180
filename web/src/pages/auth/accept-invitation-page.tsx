import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { authApi } from '../../api/auth.api';
import { ApiError } from '../../api/client';
import type { InvitationPreview, Session } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { LoadingBlock } from '../../components/spinner';
import { formatDateTime } from '../../lib/format';
import { ROLE_WITH_ARTICLE } from '../../lib/roles';
import { useResource } from '../../lib/use-resource';
import { useSessionState } from '../../session/session-context';
import { AuthLayout } from './auth-layout';
import { InvitationAuthForm } from './invitation-auth-form';

/** /invite/:token — the link of an invitation e-mail: who invites you where, and the way in. */
export function AcceptInvitationPage() {
  const { token = '' } = useParams();
  const invitation = useResource(() => authApi.invitation(token));
  const { state } = useSessionState();

  if (invitation.status === 'loading' || state.status === 'loading') {
    return (
      <AuthLayout title="Invitation" subtitle="Checking your invitation…" footer={null}>
        <LoadingBlock label="Loading the invitation…" />
      </AuthLayout>
    );
  }
  if (invitation.status === 'error') return <InvitationProblem error={invitation.error} />;
  return <InvitationOffer token={token} invitation={invitation.data} />;
}

function InvitationOffer({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const { state, signedIn, signOut } = useSessionState();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inviter = invitation.invited_by ? invitation.invited_by.name || invitation.invited_by.email : 'An admin';

  const joined = (session: Session) => {
    signedIn(session);
    navigate('/demos', { replace: true });
  };

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      joined(await authApi.acceptInvitation(token));
    } catch (err) {
      setBusy(false);
      setError(err instanceof ApiError ? err.message : 'Something went wrong. Try again.');
    }
  }

  const signedInAs = state.status === 'signed-in' ? state.session.user.email : null;
  return (
    <AuthLayout
      title={`Join ${invitation.workspace.name}`}
      subtitle={
        <>
          {inviter} invited <strong>{invitation.email}</strong> to join as {ROLE_WITH_ARTICLE[invitation.role]}. The link works once, until{' '}
          {formatDateTime(invitation.expires_at)}.
        </>
      }
      footer={<Link to="/login">Not now</Link>}
    >
      {error ? <Alert tone="danger">{error}</Alert> : null}
      {signedInAs === invitation.email ? (
        <Button variant="primary" className="btn-block" loading={busy} onClick={accept}>
          Join {invitation.workspace.name}
        </Button>
      ) : null}
      {signedInAs && signedInAs !== invitation.email ? (
        <div className="stack">
          <Alert tone="warning" title="This invitation is for another address">
            You are signed in as {signedInAs}. Sign out, then sign in or sign up as {invitation.email} to accept it.
          </Alert>
          <Button className="btn-block" onClick={() => void signOut()}>
            Sign out
          </Button>
        </div>
      ) : null}
      {signedInAs ? null : <InvitationAuthForm token={token} invitation={invitation} onJoined={joined} />}
    </AuthLayout>
  );
}

function InvitationProblem({ error }: { error: ApiError }) {
  const title = error.status === 410 ? 'This invitation has expired' : error.status === 404 || error.status === 400 ? 'This invitation link is not valid' : 'The invitation could not be loaded';
  const advice =
    error.status === 410 || error.status === 404 || error.status === 400
      ? 'Invitation links work once and expire after a week, and a resent invitation replaces the earlier link. Ask an admin of the workspace to send you a new one.'
      : error.message;
  return (
    <AuthLayout title={title} subtitle={advice} footer={<Link to="/login">Go to sign-in</Link>}>
      {null}
    </AuthLayout>
  );
}
