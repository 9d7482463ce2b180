import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type Webhook, type WebhookDelivery, type WebhookWithSecret, webhooksApi } from '../../api/webhooks.api';
import { Alert } from '../../components/alert';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { SecretRevealDialog, WebhookFormDialog } from './webhook-dialogs';
import { disabledText, WebhookStatus } from './webhooks-page';

const STATUS_TONE: Record<WebhookDelivery['status'], BadgeTone> = {
  pending: 'accent',
  delivering: 'accent',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};
const headerText = (headers: Record<string, string> | null) =>
  headers ? Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\n') : '';

function DeliveryDetails({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <div className="stack">
      <div>
        <h4>Request body</h4>
        <pre className="code-block">{pretty(delivery.request_body)}</pre>
      </div>
      {delivery.attempt_log.length === 0 ? <p className="muted">No attempt yet.</p> : null}
      {delivery.attempt_log.map((a) => (
        <div key={a.attempt} className="card card-padded stack">
          <p>
            <strong>Attempt {a.attempt}</strong> · {formatDateTime(a.started_at)} ·{' '}
            {a.status_code !== null ? `HTTP ${a.status_code}` : a.outcome === 'lost' ? 'outcome unknown' : 'no response'}
            {a.duration_ms !== null ? ` · ${a.duration_ms} ms` : ''}
          </p>
          {a.error ? <Alert tone={a.outcome === 'lost' ? 'warning' : 'danger'}>{a.error}</Alert> : null}
          <h4>Request headers</h4>
          <pre className="code-block">{headerText(a.request_headers)}</pre>
          {a.response_headers ? (
            <>
              <h4>Response</h4>
              <pre className="code-block">{`${headerText(a.response_headers)}\n\n${a.response_body ?? ''}${a.response_truncated ? '\n… (cut at 2 KB)' : ''}`}</pre>
            </>
          ) : null}
        </div>
      ))}
    </div>
  );
}

function DeliveryLog({ hook }: { hook: Webhook }) {
  const notify = useToast();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const log = useResource(() => webhooksApi.deliveries(hook.id, page, status || undefined));
  const rows = log.data?.rows ?? [];
  const total = log.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / 20));
  const reloadWith = (next: () => void) => {
    next();
    setTimeout(() => void log.reload(), 0);
  };

  return (
    <section className="stack" aria-labelledby="log-title">
      <div className="section-header">
        <h3 id="log-title">Deliveries</h3>
        <div className="row">
          <select className="input select" aria-label="Filter by status" value={status} onChange={(e) => reloadWith(() => { setStatus(e.target.value); setPage(1); })}>
            <option value="">All</option>
            <option value="succeeded">Succeeded</option>
            <option value="failed">Failed</option>
            <option value="pending">Pending</option>
          </select>
          <Button onClick={() => void log.reload()}>Refresh</Button>
        </div>
      </div>
      {log.status === 'loading' ? <LoadingBlock label="Loading deliveries…" /> : null}
      {log.status === 'error' ? <LoadError error={log.error} onRetry={log.reload} /> : null}
      {log.status === 'ready' && rows.length === 0 ? <EmptyState title="No deliveries yet">Send a test event to see one here.</EmptyState> : null}
      <ul className="stack" aria-label="Deliveries">
        {rows.map((d) => (
          <li key={d.id} className="card card-padded stack">
            <div className="row">
              <Badge tone={STATUS_TONE[d.status]}>{d.status}</Badge>
              <code>{d.event}</code>
              <span className="muted">{formatDateTime(d.created_at)}</span>
              <span className="muted">
                {d.attempts}/{d.max_attempts} attempt{d.max_attempts === 1 ? '' : 's'}
                {d.last_status_code !== null ? ` · HTTP ${d.last_status_code}` : ''}
                {d.next_attempt_at && d.status === 'pending' ? ` · next ${formatDateTime(d.next_attempt_at)}` : ''}
              </span>
              <Button variant="ghost" aria-expanded={open === d.id} onClick={() => setOpen(open === d.id ? null : d.id)}>
                {open === d.id ? 'Hide' : 'Details'}
              </Button>
              <Button
                variant="ghost"
                disabled={!hook.active}
                onClick={async () => {
                  await webhooksApi.redeliver(hook.id, d.id);
                  notify('Redelivery queued');
                  await log.reload();
                }}
              >
                Redeliver
              </Button>
            </div>
            {d.last_error && d.status !== 'succeeded' ? <p className="muted">{d.last_error}</p> : null}
            {open === d.id ? <DeliveryDetails delivery={d} /> : null}
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <div className="row">
          <Button disabled={page <= 1} onClick={() => reloadWith(() => setPage(page - 1))}>
            Previous
          </Button>
          <span className="muted">
            Page {page} of {pages}
          </span>
          <Button disabled={page >= pages} onClick={() => reloadWith(() => setPage(page + 1))}>
            Next
          </Button>
        </div>
      ) : null}
    </section>
  );
}

/** Settings → Webhooks → one webhook: its settings, actions and delivery log. */
export function WebhookDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const notify = useToast();
  const hooks = useResource(() => webhooksApi.list());
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [reveal, setReveal] = useState<WebhookWithSecret | null>(null);

  if (hooks.status === 'loading') return <LoadingBlock label="Loading webhook…" />;
  if (hooks.status === 'error') return <LoadError error={hooks.error} onRetry={hooks.reload} />;
  const hook = hooks.data.rows.find((h) => h.id === id);
  if (!hook) return <Alert tone="warning" title="Webhook not found">It may have been deleted. <Link to="/settings/webhooks">Back to webhooks</Link></Alert>;

  const setActive = async (active: boolean) => {
    await webhooksApi.update(hook.id, { active });
    notify(active ? 'Webhook enabled' : 'Webhook disabled');
    await hooks.reload();
  };

  return (
    <div className="stack">
      <p>
        <Link to="/settings/webhooks">← Webhooks</Link>
      </p>
      {!hook.active ? <Alert tone={hook.disabled_reason === 'manual' ? 'info' : 'danger'}>{disabledText(hook)}</Alert> : null}
      <div className="card card-padded stack">
        <div className="section-header">
          <div>
            <h2 className="mono">{hook.url}</h2>
            <p className="muted">
              <WebhookStatus hook={hook} /> · {hook.events.join(', ')} · secret <code>{hook.secret_hint}</code>
            </p>
          </div>
          <div className="row">
            <Button
              disabled={!hook.active}
              onClick={async () => {
                await webhooksApi.test(hook.id);
                notify('Test event queued');
              }}
            >
              Send test
            </Button>
            <Button onClick={() => setEditing(true)}>Edit</Button>
            <Button onClick={() => setRotating(true)}>Rotate secret</Button>
            <Button onClick={() => void setActive(!hook.active)}>{hook.active ? 'Disable' : 'Enable'}</Button>
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          </div>
        </div>
      </div>
      <DeliveryLog hook={hook} />

      {editing ? (
        <WebhookFormDialog
          webhook={hook}
          onClose={() => setEditing(false)}
          onSaved={async () => {
            setEditing(false);
            notify('Webhook saved');
            await hooks.reload();
          }}
        />
      ) : null}
      {reveal ? <SecretRevealDialog webhook={reveal} rotated onClose={() => setReveal(null)} /> : null}
      {rotating ? (
        <ConfirmDialog
          title="Rotate the signing secret?"
          confirmLabel="Rotate secret"
          onClose={() => setRotating(false)}
          onConfirm={async () => {
            const fresh = await webhooksApi.rotate(hook.id);
            setRotating(false);
            setReveal(fresh);
            await hooks.reload();
          }}
        >
          <p>A new secret is made. For 24 hours deliveries carry signatures for both, then only for the new one.</p>
        </ConfirmDialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this webhook?"
          confirmLabel="Delete webhook"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await webhooksApi.remove(hook.id);
            notify('Webhook deleted');
            navigate('/settings/webhooks');
          }}
        >
          <p>It stops receiving events at once, and its delivery log is deleted.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
