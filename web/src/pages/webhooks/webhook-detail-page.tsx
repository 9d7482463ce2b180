import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { type Webhook, type WebhookAttempt, type WebhookDelivery, type WebhookWithSecret, webhooksApi } from '../../api/webhooks.api';
import { Alert } from '../../components/alert';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { formatDate, formatDateTime, formatRelative } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { WebhookFormDialog, WebhookSecretDialog } from './webhook-dialogs';
import { disabledText, EventChips, useSendTest, WebhookStatus } from './webhooks-page';

const PER_PAGE = 20;
/** How soon the log looks again while a delivery is queued or being sent, and at the latest while one waits for a retry. */
const POLL_MS = 1500;
const MAX_POLL_MS = 60_000;

const STATUS_TONE: Record<WebhookDelivery['status'], BadgeTone> = {
  pending: 'accent',
  delivering: 'accent',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};

function statusLabel(d: WebhookDelivery): string {
  switch (d.status) {
    case 'pending':
      return d.attempts > 0 ? 'Retrying' : 'Queued';
    case 'delivering':
      return 'Sending';
    case 'succeeded':
      return 'Delivered';
    case 'failed':
      return 'Failed';
    case 'cancelled':
      return 'Cancelled';
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line on what happened: attempts so far, the last status code, when the next try is. */
function progressText(d: WebhookDelivery): string {
  const code = d.last_status_code !== null ? ` · HTTP ${d.last_status_code}` : '';
  switch (d.status) {
    case 'pending':
      if (d.attempts === 0) return 'Waiting for its first attempt';
      return `${d.attempts} of ${d.max_attempts} attempts failed${code}${d.next_attempt_at ? ` · next at ${formatDateTime(d.next_attempt_at)}` : ''}`;
    case 'delivering':
      return `Attempt ${d.attempts} of ${d.max_attempts} under way`;
    case 'succeeded':
      return `${d.attempts > 1 ? `Delivered on attempt ${d.attempts}` : 'Delivered on the first attempt'}${code}`;
    case 'failed':
      return `Failed after ${plural(d.attempts, 'attempt')}${code}`;
    case 'cancelled':
      return 'Cancelled: the webhook was disabled';
  }
}

const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};
const headerText = (headers: Record<string, string> | null) =>
  headers
    ? Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')
    : '';

function attemptResult(a: WebhookAttempt): { tone: BadgeTone; text: string } {
  if (a.status_code !== null) return { tone: a.outcome === 'succeeded' ? 'success' : 'danger', text: `HTTP ${a.status_code}` };
  if (a.outcome === 'lost') return { tone: 'warning', text: 'Outcome unknown' };
  return { tone: 'danger', text: 'No response' };
}

function Attempt({ attempt: a }: { attempt: WebhookAttempt }) {
  const result = attemptResult(a);
  return (
    <div className="attempt">
      <div className="attempt-head">
        <h4>Attempt {a.attempt}</h4>
        <Badge tone={result.tone}>{result.text}</Badge>
        <span className="muted">
          {formatDateTime(a.started_at)}
          {a.duration_ms !== null ? ` · ${a.duration_ms} ms` : ''}
        </span>
      </div>
      {a.error ? <p className={a.outcome === 'lost' ? 'attempt-note' : 'delivery-error'}>{a.error}</p> : null}
      <div className="attempt-grid">
        <div className="log-block">
          <h5>Request headers</h5>
          <pre className="code-block">{headerText(a.request_headers)}</pre>
        </div>
        {a.response_headers ? (
          <div className="log-block">
            <h5>Response headers</h5>
            <pre className="code-block">{headerText(a.response_headers)}</pre>
          </div>
        ) : null}
      </div>
      {a.response_headers ? (
        <div className="log-block">
          <h5>Response body{a.response_truncated ? ' (first 2 KB)' : ''}</h5>
          {a.response_body ? <pre className="code-block">{a.response_body}</pre> : <p className="muted">Empty</p>}
        </div>
      ) : null}
    </div>
  );
}

function DeliveryDetails({ delivery, id }: { delivery: WebhookDelivery; id: string }) {
  return (
    <div className="delivery-details" id={id}>
      <div className="log-block">
        <h4>Request body</h4>
        <pre className="code-block">{pretty(delivery.request_body)}</pre>
      </div>
      {delivery.attempt_log.length === 0 ? <p className="muted">No attempt yet.</p> : null}
      {delivery.attempt_log.map((a) => (
        <Attempt key={a.attempt} attempt={a} />
      ))}
    </div>
  );
}

const inFlight = (d: WebhookDelivery) => d.status === 'pending' || d.status === 'delivering';

/** When to look again: soon while something is being sent, else shortly after the next retry is due. */
function nextPollIn(rows: WebhookDelivery[], now = Date.now()): number | null {
  const due = rows
    .filter(inFlight)
    .map((d) => (d.status === 'pending' && d.next_attempt_at ? new Date(d.next_attempt_at).getTime() + 500 - now : 0));
  if (due.length === 0) return null;
  return Math.min(MAX_POLL_MS, Math.max(POLL_MS, Math.min(...due)));
}

/**
 * The webhook's deliveries, newest first. It reloads when `version` changes (a test was sent), and looks
 * again every moment while a delivery is queued or being sent, so results appear without a manual refresh.
 */
function DeliveryLog({ hook, version, onSettled }: { hook: Webhook; version: number; onSettled(): void }) {
  const notify = useToast();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const [redelivering, setRedelivering] = useState<string | null>(null);
  const log = useResource(() => webhooksApi.deliveries(hook.id, page, status || undefined));
  const rows = log.data?.rows ?? [];
  const total = log.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const { reload } = log;

  // A new filter, page or test event: load again (not on mount, where useResource already loads).
  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter, page and test counter are what the log depends on
  useEffect(() => {
    if (mounted.current) void reload();
    mounted.current = true;
  }, [reload, page, status, version]);

  const wasBusy = useRef(false);
  const onSettledRef = useRef(onSettled);
  onSettledRef.current = onSettled;
  useEffect(() => {
    const wait = nextPollIn(log.data?.rows ?? []);
    if (wait === null) {
      if (wasBusy.current) onSettledRef.current();
      wasBusy.current = false;
      return;
    }
    wasBusy.current = true;
    const timer = setTimeout(() => void reload(), wait);
    return () => clearTimeout(timer);
  }, [log.data, reload]);

  async function redeliver(d: WebhookDelivery) {
    setRedelivering(d.id);
    try {
      await webhooksApi.redeliver(hook.id, d.id);
      notify('Redelivery queued');
      await reload();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'The delivery could not be queued again.', 'danger');
    } finally {
      setRedelivering(null);
    }
  }

  return (
    <section className="stack delivery-log" aria-labelledby="log-title">
      <div className="log-header">
        <div>
          <h3 id="log-title">Delivery log</h3>
          <p className="muted">Every attempt with what was sent and what the receiver answered. Kept for 30 days.</p>
        </div>
        <div className="log-tools">
          <select className="input select" aria-label="Filter deliveries by status" value={status} onChange={(e) => {
            setStatus(e.target.value);
            setPage(1);
          }}>
            <option value="">All deliveries</option>
            <option value="succeeded">Delivered</option>
            <option value="failed">Failed</option>
            <option value="pending">Queued or retrying</option>
            <option value="cancelled">Cancelled</option>
          </select>
          <Button onClick={() => void reload()}>Refresh</Button>
        </div>
      </div>
      {log.status === 'loading' ? <LoadingBlock label="Loading deliveries…" /> : null}
      {log.status === 'error' ? <LoadError error={log.error} onRetry={reload} /> : null}
      {log.status === 'ready' && rows.length === 0 ? (
        status ? (
          <EmptyState title="No deliveries match">Choose “All deliveries” to see the others.</EmptyState>
        ) : (
          <EmptyState title="No deliveries yet">Events you subscribed to appear here as they are sent. Send a test event to see one now.</EmptyState>
        )
      ) : null}
      {rows.length > 0 ? (
        <ul className="delivery-list" aria-label="Deliveries">
          {rows.map((d) => {
            const detailsId = `delivery-${d.id}`;
            return (
              <li key={d.id} className="card delivery">
                <div className="delivery-summary">
                  <div className="delivery-what">
                    <Badge tone={STATUS_TONE[d.status]}>{statusLabel(d)}</Badge>
                    <code className="delivery-event">{d.event}</code>
                    {d.redelivery_of ? <span className="chip">Redelivery</span> : null}
                  </div>
                  <p className="delivery-meta">
                    <time dateTime={d.created_at}>{formatDateTime(d.created_at)}</time> · {progressText(d)}
                  </p>
                  <div className="delivery-actions">
                    <Button size="sm" variant="ghost" aria-expanded={open === d.id} aria-controls={open === d.id ? detailsId : undefined} onClick={() => setOpen(open === d.id ? null : d.id)}>
                      {open === d.id ? 'Hide details' : 'Details'}
                    </Button>
                    <Button size="sm" disabled={!hook.active} loading={redelivering === d.id} onClick={() => void redeliver(d)}>
                      Redeliver
                    </Button>
                  </div>
                </div>
                {d.last_error && d.status !== 'succeeded' ? <p className="delivery-error">{d.last_error}</p> : null}
                {open === d.id ? <DeliveryDetails delivery={d} id={detailsId} /> : null}
              </li>
            );
          })}
        </ul>
      ) : null}
      {pages > 1 ? (
        <nav className="row pager" aria-label="Delivery pages">
          <Button disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </Button>
          <span className="muted">
            Page {page} of {pages}
          </span>
          <Button disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </Button>
        </nav>
      ) : null}
    </section>
  );
}

/** Settings → Webhooks → one webhook: its settings, actions and delivery log. */
export function WebhookDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const notify = useToast();
  const sendTest = useSendTest();
  const hooks = useResource(() => webhooksApi.get(id));
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [switching, setSwitching] = useState(false);
  const [testing, setTesting] = useState(false);
  const [reveal, setReveal] = useState<WebhookWithSecret | null>(null);
  const [logVersion, setLogVersion] = useState(0);

  if (hooks.status === 'loading') return <LoadingBlock label="Loading webhook…" />;
  // A malformed id in the address (400) is as unknown as a deleted webhook (404).
  if (hooks.status === 'error' && hooks.error.status !== 404 && hooks.error.status !== 400) {
    return <LoadError error={hooks.error} onRetry={hooks.reload} />;
  }
  const hook = hooks.status === 'ready' ? hooks.data : undefined;
  if (!hook) {
    return (
      <Alert tone="warning" title="Webhook not found">
        It may have been deleted. <Link to="/settings/webhooks">Back to webhooks</Link>
      </Alert>
    );
  }

  const setActive = async (active: boolean) => {
    setSwitching(true);
    try {
      await webhooksApi.update(hook.id, { active });
      notify(active ? 'Webhook enabled' : 'Webhook disabled');
      await hooks.reload();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'The webhook could not be changed.', 'danger');
    } finally {
      setSwitching(false);
    }
  };
  const test = async () => {
    setTesting(true);
    if (await sendTest(hook)) setLogVersion((v) => v + 1);
    setTesting(false);
  };
  const rotationEnds =
    hook.previous_secret_expires_at && new Date(hook.previous_secret_expires_at).getTime() > Date.now() ? hook.previous_secret_expires_at : null;

  return (
    <div className="stack">
      <p>
        <Link to="/settings/webhooks">← Webhooks</Link>
      </p>
      {!hook.active ? (
        <Alert tone={hook.disabled_reason === 'manual' ? 'info' : 'danger'} title="This webhook is disabled">
          {disabledText(hook)}
        </Alert>
      ) : null}
      <section className="card" aria-labelledby="webhook-title">
        <div className="card-header webhook-head">
          <div className="webhook-title">
            <h2 id="webhook-title" className="mono break-anywhere">
              {hook.url}
            </h2>
            <WebhookStatus hook={hook} />
          </div>
          <div className="webhook-actions">
            <Button variant="primary" disabled={!hook.active} loading={testing} onClick={() => void test()}>
              Send test
            </Button>
            <Button onClick={() => setEditing(true)}>Edit</Button>
            <Button onClick={() => setRotating(true)}>Rotate secret</Button>
            <Button loading={switching} onClick={() => void setActive(!hook.active)}>
              {hook.active ? 'Disable' : 'Enable'}
            </Button>
            <Button variant="ghost" className="btn-danger-text" onClick={() => setDeleting(true)}>
              Delete
            </Button>
          </div>
        </div>
        <dl className="details">
          <div>
            <dt>Events</dt>
            <dd>
              <EventChips events={hook.events} />
            </dd>
          </div>
          <div>
            <dt>Signing secret</dt>
            <dd>
              <code>{hook.secret_hint}</code>
              {rotationEnds ? <span className="muted"> · the previous secret also signs until {formatDateTime(rotationEnds)}</span> : null}
            </dd>
          </div>
          <div>
            <dt>Last delivery</dt>
            <dd>
              {hook.last_delivery_at ? <span title={formatDateTime(hook.last_delivery_at)}>{formatRelative(hook.last_delivery_at)}</span> : <span className="muted">Never</span>}
              {hook.consecutive_failures > 0 ? <span className="muted"> · {plural(hook.consecutive_failures, 'failed attempt')} since the last success</span> : null}
            </dd>
          </div>
          <div>
            <dt>Added</dt>
            <dd>{formatDate(hook.created_at)}</dd>
          </div>
        </dl>
      </section>
      <DeliveryLog hook={hook} version={logVersion} onSettled={() => void hooks.reload()} />

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
      {reveal ? <WebhookSecretDialog webhook={reveal} rotated onClose={() => setReveal(null)} /> : null}
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
          <p>A new secret is made and shown once. For a grace period (24 hours by default) deliveries carry signatures for both, then only for the new one.</p>
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
          <p>
            <code className="break-anywhere">{hook.url}</code> stops receiving events at once, and its delivery log is deleted. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
