import { useState } from 'react';
import { oauthApi } from '../../api/oauth.api';
import type { CreatedOAuthApp, OAuthApp } from '../../api/types';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { KeyIcon, PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { useToast } from '../../components/toast';
import { formatDate } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';
import { AuthorizedAppsSection } from '../account/authorized-apps-section';
import { AppRevealDialog, CreateAppDialog } from './oauth-app-dialogs';

/** Settings → API → OAuth apps: applications that act on behalf of users through OAuth 2.0. */
export function OAuthAppsPage() {
  const notify = useToast();
  const can = useCan();
  const admin = can('oauth_apps.manage');
  // Only admins may list apps; everyone else sees why instead of a 403.
  const apps = useResource(async () => (admin ? (await oauthApi.listApps()).rows : []));
  const [creating, setCreating] = useState(false);
  const [reveal, setReveal] = useState<CreatedOAuthApp | null>(null);
  const [deleting, setDeleting] = useState<OAuthApp | null>(null);
  const [rotating, setRotating] = useState<OAuthApp | null>(null);
  const rows = apps.status === 'ready' ? apps.data : [];

  const columns: Column<OAuthApp>[] = [
    {
      key: 'name',
      header: 'Application',
      kind: 'primary',
      render: (a) => (
        <span className="cell-stack">
          <strong>{a.name}</strong>
          <code className="cell-sub">{a.client_id}</code>
          <span className="cell-sub">Created {formatDate(a.created_at)}</span>
        </span>
      ),
    },
    { key: 'type', header: 'Type', render: (a) => (a.public ? <Badge>Public (PKCE)</Badge> : <Badge tone="accent">Confidential</Badge>) },
    {
      key: 'redirects',
      header: 'Redirect URIs',
      render: (a) => (
        <span className="cell-stack">
          {a.redirect_uris.map((u) => (
            <code key={u} className="cell-sub break-anywhere">
              {u}
            </code>
          ))}
        </span>
      ),
    },
    {
      key: 'scopes',
      header: 'Scopes',
      render: (a) => (
        <span className="chips">
          {a.scopes.map((s) => (
            <code key={s} className="chip">
              {s}
            </code>
          ))}
        </span>
      ),
    },
    {
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      kind: 'actions',
      render: (a) => (
        <span className="row row-end">
          {a.public ? null : (
            <Button size="sm" onClick={() => setRotating(a)} aria-label={`New secret for ${a.name}`}>
              New secret
            </Button>
          )}
          <Button size="sm" variant="ghost" className="btn-danger-text" onClick={() => setDeleting(a)} aria-label={`Delete ${a.name}`}>
            Delete
          </Button>
        </span>
      ),
    },
  ];

  return (
    <section className="stack" aria-labelledby="oauth-title">
      <div className="section-header">
        <div>
          <h2 id="oauth-title">OAuth apps</h2>
          <p className="muted">
            Let other applications act on behalf of your team members, with their consent, through OAuth 2.0 (authorization code flow, PKCE
            for public clients). Users approve at <code className="nowrap">/oauth/authorize</code>.
          </p>
        </div>
        {admin && rows.length > 0 ? (
          <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
            Register app
          </Button>
        ) : null}
      </div>
      {!admin ? <Alert tone="info">Only workspace admins register and manage OAuth apps.</Alert> : null}
      {admin && apps.status === 'loading' ? <LoadingBlock label="Loading apps…" /> : null}
      {apps.status === 'error' ? <LoadError error={apps.error} onRetry={apps.reload} /> : null}
      {admin && apps.status === 'ready' && rows.length === 0 ? (
        <EmptyState
          icon={<KeyIcon size={24} />}
          title="No OAuth apps yet"
          action={
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
              Register app
            </Button>
          }
        >
          Register an integration to get a client id and secret for the OAuth 2.0 authorization code flow.
        </EmptyState>
      ) : null}
      {rows.length > 0 ? <Table caption="OAuth apps" columns={columns} rows={rows} rowKey={(a) => a.id} /> : null}
      {can('oauth_grants.manage_all') ? <AuthorizedAppsSection allMembers /> : null}

      {creating ? (
        <CreateAppDialog
          onClose={() => setCreating(false)}
          onCreated={async (created) => {
            setCreating(false);
            setReveal(created);
            await apps.reload();
          }}
        />
      ) : null}
      {reveal ? <AppRevealDialog app={reveal} onClose={() => setReveal(null)} /> : null}
      {rotating ? (
        <ConfirmDialog
          title={`New secret for “${rotating.name}”?`}
          confirmLabel="Issue new secret"
          onClose={() => setRotating(null)}
          onConfirm={async () => {
            const updated = await oauthApi.rotateSecret(rotating.id);
            setRotating(null);
            setReveal(updated);
            await apps.reload();
          }}
        >
          <p>The current secret stops working immediately. Tokens already issued keep working.</p>
        </ConfirmDialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete app"
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await oauthApi.deleteApp(deleting.id);
            setDeleting(null);
            notify(`“${deleting.name}” deleted`);
            await apps.reload();
          }}
        >
          <p>Every authorisation of this app ends and all its access tokens stop working at once. This cannot be undone.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
