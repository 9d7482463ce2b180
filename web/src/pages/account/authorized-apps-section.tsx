import { useState } from 'react';
import { oauthApi } from '../../api/oauth.api';
import type { OAuthAuthorization } from '../../api/types';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { useToast } from '../../components/toast';
import { formatDateTime, formatRelative } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

/**
 * Authorized apps: in Account settings the OAuth authorisations the user gave (in every workspace), and in
 * Settings → API for admins (`allMembers`) every member's in the workspace. Revoking ends its tokens at once.
 */
export function AuthorizedAppsSection({ allMembers = false }: { allMembers?: boolean }) {
  const grants = useResource(async () => (await oauthApi.listAuthorizations(allMembers)).rows);
  const notify = useToast();
  const [revoking, setRevoking] = useState<OAuthAuthorization | null>(null);
  const heading = allMembers ? 'workspace-authorized-apps-heading' : 'authorized-apps-heading';

  const columns: Column<OAuthAuthorization>[] = [
    {
      key: 'app',
      header: 'Application',
      kind: 'primary',
      render: (g) => (
        <span className="cell-stack">
          <span className="cell-strong row">
            {g.app.name}
            {g.app.verified ? <Badge tone="success">Verified</Badge> : null}
          </span>
          <span className="cell-sub">{allMembers ? g.user.email : g.workspace.name}</span>
        </span>
      ),
    },
    {
      key: 'scopes',
      header: 'Scopes',
      render: (g) => (
        <span className="chips">
          {g.scopes.map((s) => (
            <code key={s} className="chip">
              {s}
            </code>
          ))}
        </span>
      ),
    },
    { key: 'created', header: 'Authorized', kind: 'nowrap', render: (g) => formatDateTime(g.created_at) },
    {
      key: 'used',
      header: 'Last used',
      kind: 'nowrap',
      render: (g) => (g.last_used_at ? <span title={formatDateTime(g.last_used_at)}>{formatRelative(g.last_used_at)}</span> : 'Never'),
    },
    {
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      kind: 'actions',
      render: (g) => (
        <Button size="sm" variant="ghost" className="btn-danger-text" onClick={() => setRevoking(g)} aria-label={`Revoke ${g.app.name}${allMembers ? ` for ${g.user.email}` : ` in ${g.workspace.name}`}`}>
          Revoke
        </Button>
      ),
    },
  ];

  return (
    <section className="card" aria-labelledby={heading}>
      <div className="card-header">
        <h2 id={heading}>{allMembers ? 'Authorized apps in this workspace' : 'Authorized apps'}</h2>
        <p className="muted">
          {allMembers
            ? 'Every application a member of this workspace allowed to act on their behalf. Revoking one stops its access at once.'
            : 'Applications you allowed to act on your behalf, in each of your workspaces. Revoke anything you no longer use.'}
        </p>
      </div>
      {grants.status === 'loading' ? <LoadingBlock /> : null}
      {grants.status === 'error' ? (
        <div className="card-body">
          <LoadError error={grants.error} onRetry={grants.reload} />
        </div>
      ) : null}
      {grants.data?.length === 0 ? (
        <div className="card-body">
          <p className="muted">{allMembers ? 'No member has authorized an application.' : 'You have not authorized any application.'}</p>
        </div>
      ) : null}
      {grants.data && grants.data.length > 0 ? (
        <Table caption={allMembers ? 'Authorized apps in this workspace' : 'Your authorized apps'} columns={columns} rows={grants.data} rowKey={(g) => g.id} />
      ) : null}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke ${revoking.app.name}?`}
          confirmLabel="Revoke access"
          danger
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await oauthApi.revokeAuthorization(revoking.id);
            setRevoking(null);
            notify(`${revoking.app.name} can no longer access ${revoking.workspace.name}`);
            await grants.reload();
          }}
        >
          {`${revoking.app.name} loses access to ${revoking.workspace.name}${allMembers ? ` on behalf of ${revoking.user.email}` : ''} at once: every token it holds stops working.`}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
