import { useState } from 'react';
import { accountApi } from '../../api/account.api';
import type { AccountSession } from '../../api/types';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { useToast } from '../../components/toast';
import { formatDateTime, formatRelative } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

export function SessionsSection() {
  // This device first, then by last use as the API orders them.
  const sessions = useResource(async () => (await accountApi.sessions()).sort((a, b) => Number(b.current) - Number(a.current)));
  const notify = useToast();
  const [ending, setEnding] = useState<AccountSession | 'others' | null>(null);

  const columns: Column<AccountSession>[] = [
    {
      key: 'device',
      header: 'Device',
      kind: 'primary',
      render: (s) => (
        <span className="cell-stack">
          <span className="cell-strong row">
            {s.device}
            {s.current ? <Badge tone="accent">This device</Badge> : null}
          </span>
          <span className="cell-sub">{s.ip ?? 'Unknown address'}</span>
        </span>
      ),
    },
    {
      key: 'last',
      header: 'Last active',
      kind: 'nowrap',
      render: (s) => (s.current ? 'Now' : s.last_seen_at ? <span title={formatDateTime(s.last_seen_at)}>{formatRelative(s.last_seen_at)}</span> : '—'),
    },
    { key: 'since', header: 'Signed in', kind: 'nowrap', render: (s) => formatDateTime(s.created_at) },
    {
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      kind: 'actions',
      render: (s) =>
        s.current ? null : (
          <Button size="sm" onClick={() => setEnding(s)}>
            Sign out
          </Button>
        ),
    },
  ];

  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  return (
    <section className="card" aria-labelledby="sessions-heading">
      <div className="card-header row row-wrap row-between">
        <div>
          <h2 id="sessions-heading">Sessions</h2>
          <p className="muted">Where your account is signed in. Sign out anything you do not recognise, then change your password.</p>
        </div>
        {others > 0 ? (
          <Button variant="danger" size="sm" onClick={() => setEnding('others')}>
            Sign out everywhere else
          </Button>
        ) : null}
      </div>
      {sessions.status === 'loading' ? <LoadingBlock /> : null}
      {sessions.status === 'error' ? (
        <div className="card-body">
          <LoadError error={sessions.error} onRetry={sessions.reload} />
        </div>
      ) : null}
      {sessions.data ? <Table caption="Your sessions" columns={columns} rows={sessions.data} rowKey={(s) => s.id} /> : null}
      {ending ? (
        <ConfirmDialog
          title={ending === 'others' ? 'Sign out everywhere else?' : `Sign out ${ending.device}?`}
          confirmLabel="Sign out"
          danger
          onClose={() => setEnding(null)}
          onConfirm={async () => {
            if (ending === 'others') {
              const { ended_sessions } = await accountApi.revokeOtherSessions();
              notify(ended_sessions === 1 ? '1 session signed out' : `${ended_sessions} sessions signed out`);
            } else {
              await accountApi.revokeSession(ending.id);
              notify('Session signed out');
            }
            setEnding(null);
            await sessions.reload();
          }}
        >
          {ending === 'others'
            ? 'Every browser signed in to your account, except this one, is signed out at once, and links e-mailed earlier (a change of address, a verification or reset link) stop working.'
            : `The browser signed in from ${ending.ip ?? 'an unknown address'} is signed out at once.`}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
