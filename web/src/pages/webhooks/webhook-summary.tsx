import type { Webhook } from '../../api/webhooks.api';
import { Button } from '../../components/button';
import { formatDate, formatDateTime, formatRelative } from '../../lib/format';
import { plural } from './delivery-text';
import { EventChips, WebhookStatus } from './webhooks-page';

export interface WebhookActions {
  test(): void;
  edit(): void;
  rotate(): void;
  toggle(): void;
  remove(): void;
}

/** The webhook's card: its address and status, what can be done to it, and its settings. */
export function WebhookSummary({ hook, testing, switching, actions }: { hook: Webhook; testing: boolean; switching: boolean; actions: WebhookActions }) {
  // The previous secret still signs only until the rotation's grace period ends.
  const rotationEnds =
    hook.previous_secret_expires_at && new Date(hook.previous_secret_expires_at).getTime() > Date.now() ? hook.previous_secret_expires_at : null;
  return (
    <section className="card" aria-labelledby="webhook-title">
      <div className="card-header webhook-head">
        <div className="webhook-title">
          <h2 id="webhook-title" className="mono break-anywhere">
            {hook.url}
          </h2>
          <WebhookStatus hook={hook} />
        </div>
        <div className="webhook-actions">
          <Button variant="primary" disabled={!hook.active} loading={testing} onClick={actions.test}>
            Send test
          </Button>
          <Button onClick={actions.edit}>Edit</Button>
          <Button onClick={actions.rotate}>Rotate secret</Button>
          <Button loading={switching} onClick={actions.toggle}>
            {hook.active ? 'Disable' : 'Enable'}
          </Button>
          <Button variant="ghost" className="btn-danger-text" onClick={actions.remove}>
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
  );
}
