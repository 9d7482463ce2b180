import type { WebhookAttempt, WebhookDelivery } from '../../api/webhooks.api';
import { Badge } from '../../components/badge';
import { formatDateTime } from '../../lib/format';
import { attemptResult, headerText, pretty } from './delivery-text';

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

/** What was sent, and each attempt with the receiver's answer. */
export function DeliveryDetails({ delivery, id }: { delivery: WebhookDelivery; id: string }) {
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
