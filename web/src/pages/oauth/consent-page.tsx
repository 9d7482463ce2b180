import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../api/client';
import { oauthApi } from '../../api/oauth.api';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { SelectField } from '../../components/field';
import { LoadingBlock } from '../../components/spinner';
import { useResource } from '../../lib/use-resource';
import { useSession } from '../../session/session-context';
import { AuthLayout } from '../auth/auth-layout';

const PARAMS = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method', 'resource'];

/** {APP_URL}/oauth/authorize: the user decides whether an application may act on their behalf. */
export function ConsentPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const query = Object.fromEntries(PARAMS.flatMap((p) => (params.has(p) ? [[p, params.get(p) ?? '']] : [])));
  const consent = useResource(() => oauthApi.describe(query));
  const [busy, setBusy] = useState<'allow' | 'deny' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);

  async function decide(decision: 'allow' | 'deny', workspaceId: string) {
    setBusy(decision);
    setError(null);
    try {
      const { redirect_to } = await oauthApi.decide(query, decision, workspaceId);
      window.location.assign(redirect_to);
    } catch (err) {
      setBusy(null);
      setError(err instanceof ApiError ? err.message : 'Something went wrong. Try again.');
    }
  }

  if (consent.status === 'loading') {
    return (
      <AuthLayout title="Authorize application" subtitle="Checking the request…" footer={null}>
        <LoadingBlock />
      </AuthLayout>
    );
  }
  if (consent.status === 'error') {
    return (
      <AuthLayout title="This request cannot be used" subtitle="The application sent an invalid authorization request." footer={null}>
        <Alert tone="danger">{consent.error.message}</Alert>
        <p className="muted">Nothing was shared. Contact the application’s developer if this keeps happening.</p>
      </AuthLayout>
    );
  }
  const { data } = consent;
  if (data.error) {
    return (
      <AuthLayout title={`${data.app.name} sent an invalid request`} subtitle={data.error.error_description} footer={null}>
        <Button variant="primary" onClick={() => window.location.assign(data.error!.redirect_to)}>
          Return to {data.app.name}
        </Button>
      </AuthLayout>
    );
  }
  const workspaceId = chosen ?? data.workspace_id;
  const workspace = data.workspaces.find((w) => w.id === workspaceId) ?? { id: workspaceId, name: session.workspace.name, role: session.workspace.role };
  return (
    <AuthLayout
      title={`Allow ${data.app.name} to access your workspace?`}
      subtitle={
        <>
          Signed in as <strong>{session.user.email}</strong>.
        </>
      }
      footer={
        <>
          You will be sent to <code className="nowrap">{destination(data.redirect_uri)}</code>. You can revoke access at any time in your account
          settings, under Authorized apps.
        </>
      }
    >
      <div className="stack">
        {error ? <Alert tone="danger">{error}</Alert> : null}
        <div className="consent-app">
          <p>
            <strong>{data.app.name}</strong>{' '}
            {data.app.verified ? <Badge tone="success">Verified</Badge> : <Badge tone="warning">Not verified</Badge>}
          </p>
          <p className="muted">
            {data.app.built_in
              ? 'Built into this Demoshare.'
              : data.app.owner_workspace_name
                ? `Registered by the workspace “${data.app.owner_workspace_name}”.`
                : 'Registered by the application itself.'}{' '}
            {data.app.verified
              ? 'The administrator of this Demoshare has verified it.'
              : 'The administrator of this Demoshare has not verified it: only allow it if you trust its developer.'}
          </p>
        </div>
        {data.workspaces.length > 1 ? (
          <SelectField
            label="Workspace to grant"
            value={workspaceId}
            disabled={busy !== null}
            onChange={(e) => setChosen(e.target.value)}
            hint="The application will act in this workspace only."
          >
            {data.workspaces.map((w) => (
              <option key={w.id} value={w.id}>
                {w.name} ({w.role})
              </option>
            ))}
          </SelectField>
        ) : (
          <p>
            Workspace: <strong>{workspace.name}</strong>
          </p>
        )}
        <div>
          <p>It will be able to:</p>
          <ul className="consent-scopes">
            {data.scopes.map((s) => (
              <li key={s.name}>
                {s.description} <code className="chip">{s.name}</code>
                {s.roles.includes(workspace.role) ? null : <span className="muted"> — not with your role here</span>}
              </li>
            ))}
          </ul>
          <p className="muted">
            It can never do more than your role in {workspace.name} ({workspace.role}) allows.
          </p>
        </div>
        <div className="consent-actions">
          <Button onClick={() => decide('deny', workspaceId)} loading={busy === 'deny'} disabled={busy !== null}>
            Deny
          </Button>
          <Button variant="primary" onClick={() => decide('allow', workspaceId)} loading={busy === 'allow'} disabled={busy !== null}>
            Allow access
          </Button>
        </div>
      </div>
    </AuthLayout>
  );
}

/** Where the browser goes next, as scheme and host (URL.origin is "null" for an extension's address in some browsers). */
function destination(redirectUri: string): string {
  const url = new URL(redirectUri);
  return `${url.protocol}//${url.host}`;
}
