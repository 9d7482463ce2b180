import { SCOPES } from '../../../../src/auth/permissions';
import type { ApiKey } from '../../api/types';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import type { Column } from '../../components/table';
import { formatDate, formatDateTime, formatRelative } from '../../lib/format';

function expiry(key: ApiKey) {
  const now = Date.now();
  if (key.expires_at && new Date(key.expires_at).getTime() <= now) return <Badge tone="danger">Expired</Badge>;
  if (key.replaced_by && key.expires_at) {
    return (
      <span className="cell-stack">
        <Badge tone="warning">Rotated</Badge>
        <span className="cell-sub" title={formatDateTime(key.expires_at)}>
          Stops {formatRelative(key.expires_at, now)}
        </span>
      </span>
    );
  }
  if (!key.expires_at) return <span className="muted">Never</span>;
  return <span title={formatDateTime(key.expires_at)}>{formatDate(key.expires_at)}</span>;
}

function scopes(key: ApiKey) {
  if (key.scopes.length === SCOPES.length) return <Badge tone="accent">All scopes</Badge>;
  return (
    <span className="chips">
      {key.scopes.map((s) => (
        <code key={s} className="chip">
          {s}
        </code>
      ))}
    </span>
  );
}

export function keyColumns(options: {
  showOwner: boolean;
  ownEmail: string;
  ownMemberId: string;
  onRotate(key: ApiKey): void;
  onRevoke(key: ApiKey): void;
}): Column<ApiKey>[] {
  return [
    {
      key: 'name',
      header: 'Name',
      kind: 'primary',
      // Created sits under the name: the table has more columns than a laptop screen has room for.
      render: (k) => (
        <span className="cell-stack">
          <span className="cell-strong">{k.name}</span>
          <span className="cell-sub">
            Created {formatDate(k.created_at)}
            {options.showOwner && k.created_by && k.created_by !== options.ownEmail ? ` by ${k.created_by}` : ''}
          </span>
        </span>
      ),
    },
    {
      key: 'key',
      header: 'Key',
      kind: 'nowrap',
      render: (k) => <code className="key-mask">{`${k.prefix}…${k.last_four}`}</code>,
    },
    { key: 'scopes', header: 'Scopes', kind: 'grow', render: scopes },
    {
      key: 'last_used',
      header: 'Last used',
      kind: 'nowrap',
      render: (k) =>
        k.last_used_at ? <span title={formatDateTime(k.last_used_at)}>{formatRelative(k.last_used_at)}</span> : <span className="muted">Never</span>,
    },
    { key: 'expires', header: 'Expires', kind: 'nowrap', render: expiry },
    {
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      kind: 'actions',
      render: (k) => {
        // Only the owner rotates: the new key acts as them (the API refuses anyone else). Admins revoke.
        const usable = k.member_id === options.ownMemberId && !k.replaced_by && !(k.expires_at && new Date(k.expires_at).getTime() <= Date.now());
        return (
          <span className="row row-end">
            {usable ? (
              <Button size="sm" onClick={() => options.onRotate(k)} aria-label={`Rotate ${k.name} (${k.prefix}…${k.last_four})`}>
                Rotate
              </Button>
            ) : null}
            <Button size="sm" variant="ghost" className="btn-danger-text" onClick={() => options.onRevoke(k)} aria-label={`Revoke ${k.name} (${k.prefix}…${k.last_four})`}>
              Revoke
            </Button>
          </span>
        );
      },
    },
  ];
}
