import { useState } from 'react';
import { Link } from 'react-router';
import { type Webhook, type WebhookWithSecret, webhooksApi } from '../../api/webhooks.api';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { useToast } from '../../components/toast';
import { formatRelative } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { isAdmin, useSession } from '../../session/session-context';
import { SecretRevealDialog, WebhookFormDialog } from './webhook-dialogs';

export function disabledText(hook: Webhook): string {
  if (hook.disabled_reason === 'gone') return 'Disabled: the receiver answered 410 Gone.';
  if (hook.disabled_reason === 'failing') return 'Disabled automatically: every delivery failed for days.';
  return 'Disabled.';
}

export function WebhookStatus({ hook }: { hook: Webhook }) {
  if (!hook.active) return <Badge tone={hook.disabled_reason === 'manual' ? 'neutral' : 'danger'}>Disabled</Badge>;
  if (hook.consecutive_failures > 0) return <Badge tone="warning">Failing ({hook.consecutive_failures})</Badge>;
  return <Badge tone="success">Active</Badge>;
}

/** Settings → Webhooks: the workspace's webhooks, with a banner for those disabled automatically. */
export function WebhooksPage() {
  const session = useSession();
  const notify = useToast();
  const hooks = useResource(() => webhooksApi.list());
  const [creating, setCreating] = useState(false);
  const [reveal, setReveal] = useState<WebhookWithSecret | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  if (!isAdmin(session)) {
    return <Alert tone="info">Only admins manage webhooks. Ask an admin of this workspace to add one.</Alert>;
  }
  const rows = hooks.data?.rows ?? [];
  const autoDisabled = rows.filter((h) => !h.active && h.disabled_reason !== 'manual');

  const columns: Column<Webhook>[] = [
    {
      key: 'url',
      header: 'Endpoint',
      kind: 'primary',
      render: (h) => (
        <Link to={`/settings/webhooks/${h.id}`} className="mono">
          {h.url}
        </Link>
      ),
    },
    { key: 'events', header: 'Events', kind: 'grow', render: (h) => h.events.join(', ') },
    { key: 'status', header: 'Status', kind: 'nowrap', render: (h) => <WebhookStatus hook={h} /> },
    {
      key: 'last',
      header: 'Last delivery',
      kind: 'nowrap',
      render: (h) => (h.last_delivery_at ? formatRelative(h.last_delivery_at) : 'Never'),
    },
    {
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      kind: 'actions',
      render: (h) => (
        <div className="row">
          <Button
            variant="ghost"
            disabled={!h.active}
            onClick={async () => {
              await webhooksApi.test(h.id);
              notify('Test event queued: see the delivery log');
            }}
          >
            Send test
          </Button>
          <Button variant="ghost" onClick={() => setDeleting(h)}>
            Delete
          </Button>
        </div>
      ),
    },
  ];

  return (
    <section className="stack" aria-labelledby="webhooks-title">
      <div className="section-header">
        <div>
          <h2 id="webhooks-title">Webhooks</h2>
          <p className="muted">Signed HTTP POSTs to your systems when demos are viewed, completed, published and more.</p>
        </div>
        {rows.length > 0 ? (
          <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
            Add webhook
          </Button>
        ) : null}
      </div>

      {autoDisabled.map((h) => (
        <Alert key={h.id} tone="danger" title="A webhook was disabled">
          {disabledText(h)} <Link to={`/settings/webhooks/${h.id}`}>{h.url}</Link> receives nothing until you fix it and enable it again.
        </Alert>
      ))}
      {hooks.status === 'loading' ? <LoadingBlock label="Loading webhooks…" /> : null}
      {hooks.status === 'error' ? <LoadError error={hooks.error} onRetry={hooks.reload} /> : null}
      {hooks.status === 'ready' && rows.length === 0 ? (
        <EmptyState
          title="No webhooks yet"
          action={
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
              Add webhook
            </Button>
          }
        >
          Push views, completions and other events to your CRM or data warehouse as they happen.
        </EmptyState>
      ) : null}
      {rows.length > 0 ? <Table caption="Webhooks" columns={columns} rows={rows} rowKey={(h) => h.id} /> : null}

      {creating ? (
        <WebhookFormDialog
          onClose={() => setCreating(false)}
          onSaved={async (created) => {
            setCreating(false);
            setReveal(created as WebhookWithSecret);
            await hooks.reload();
          }}
        />
      ) : null}
      {reveal ? <SecretRevealDialog webhook={reveal} onClose={() => setReveal(null)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this webhook?"
          confirmLabel="Delete webhook"
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await webhooksApi.remove(deleting.id);
            setDeleting(null);
            notify('Webhook deleted');
            await hooks.reload();
          }}
        >
          <p>
            <code>{deleting.url}</code> stops receiving events at once, and its delivery log is deleted. This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
