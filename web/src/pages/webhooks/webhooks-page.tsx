import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../../api/client';
import { WEBHOOK_EVENT_KINDS, type Webhook, type WebhookWithSecret, webhooksApi } from '../../api/webhooks.api';
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
import { formatDate, formatDateTime, formatRelative } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { WebhookFormDialog, WebhookSecretDialog } from './webhook-dialogs';

export function disabledText(hook: Webhook): string {
  if (hook.disabled_reason === 'gone') return 'Disabled: the receiver answered 410 Gone.';
  if (hook.disabled_reason === 'failing') return 'Disabled automatically: every delivery failed for days.';
  return 'Turned off by an admin: it receives nothing, and queued deliveries are cancelled, until you enable it again.';
}

export function WebhookStatus({ hook }: { hook: Webhook }) {
  if (!hook.active) return <Badge tone={hook.disabled_reason === 'manual' ? 'neutral' : 'danger'}>Disabled</Badge>;
  if (hook.consecutive_failures > 0) return <Badge tone="warning">Failing ({hook.consecutive_failures})</Badge>;
  return <Badge tone="success">Active</Badge>;
}

/** The subscribed event kinds as chips, or one badge when it is all of them. */
export function EventChips({ events }: { events: string[] }) {
  if (WEBHOOK_EVENT_KINDS.every((k) => events.includes(k))) return <Badge tone="accent">All events</Badge>;
  return (
    <span className="chips">
      {events.map((e) => (
        <code key={e} className="chip">
          {e}
        </code>
      ))}
    </span>
  );
}

/** Queues a `webhook.test` delivery; says so, or says why not (a disabled webhook answers 409). */
export function useSendTest() {
  const notify = useToast();
  return async (hook: Webhook): Promise<boolean> => {
    try {
      await webhooksApi.test(hook.id);
      notify('Test event queued');
      return true;
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'The test event could not be sent.', 'danger');
      return false;
    }
  };
}

/** Settings → Webhooks: the workspace's webhooks, with a banner for those disabled automatically. */
export function WebhooksPage() {
  const notify = useToast();
  const sendTest = useSendTest();
  const hooks = useResource(() => webhooksApi.list());
  const [creating, setCreating] = useState(false);
  const [reveal, setReveal] = useState<WebhookWithSecret | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);

  const rows = hooks.data?.rows ?? [];
  const autoDisabled = rows.filter((h) => !h.active && h.disabled_reason !== 'manual');

  const columns: Column<Webhook>[] = [
    {
      key: 'url',
      header: 'Endpoint',
      kind: 'primary',
      render: (h) => (
        <span className="cell-stack webhook-cell">
          <Link to={`/settings/webhooks/${h.id}`} className="mono break-anywhere webhook-url">
            {h.url}
          </Link>
          <span className="cell-sub">
            Secret <code>{h.secret_hint}</code> · added {formatDate(h.created_at)}
          </span>
        </span>
      ),
    },
    { key: 'events', header: 'Events', kind: 'grow', render: (h) => <EventChips events={h.events} /> },
    { key: 'status', header: 'Status', kind: 'nowrap', render: (h) => <WebhookStatus hook={h} /> },
    {
      key: 'last',
      header: 'Last delivery',
      kind: 'nowrap',
      render: (h) =>
        h.last_delivery_at ? (
          <span title={formatDateTime(h.last_delivery_at)}>{formatRelative(h.last_delivery_at)}</span>
        ) : (
          <span className="muted">Never</span>
        ),
    },
    {
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      kind: 'actions',
      render: (h) => (
        <span className="row row-end">
          <Button size="sm" disabled={!h.active} onClick={() => void sendTest(h)} aria-label={`Send test to ${h.url}`}>
            Send test
          </Button>
          <Button size="sm" variant="ghost" className="btn-danger-text" onClick={() => setDeleting(h)} aria-label={`Delete ${h.url}`}>
            Delete
          </Button>
        </span>
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
          {disabledText(h)}{' '}
          <Link to={`/settings/webhooks/${h.id}`} className="break-anywhere">
            {h.url}
          </Link>{' '}
          receives nothing until you fix it and enable it again.
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
      {reveal ? <WebhookSecretDialog webhook={reveal} onClose={() => setReveal(null)} /> : null}
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
            <code className="break-anywhere">{deleting.url}</code> stops receiving events at once, and its delivery log is deleted. This cannot
            be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
