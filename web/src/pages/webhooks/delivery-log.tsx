import { useState } from 'react';
import type { Webhook } from '../../api/webhooks.api';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { LoadError } from '../../components/load-error';
import { Pager } from '../../components/pager';
import { LoadingBlock } from '../../components/spinner';
import { formatDateTime } from '../../lib/format';
import { DeliveryDetails } from './delivery-details';
import { progressText, STATUS_TONE, statusLabel } from './delivery-text';
import { useDeliveryLog } from './use-delivery-log';

/** The webhook's delivery log: filter, pages, each delivery with its details and Redeliver. */
export function DeliveryLog({ hook, version, onSettled }: { hook: Webhook; version: number; onSettled(): void }) {
  const { log, page, setPage, status, filter, redelivering, redeliver } = useDeliveryLog(hook, version, onSettled);
  const [open, setOpen] = useState<string | null>(null);
  const rows = log.data?.rows ?? [];

  return (
    <section className="stack delivery-log" aria-labelledby="log-title">
      <div className="log-header">
        <div>
          <h3 id="log-title">Delivery log</h3>
          <p className="muted">Every attempt with what was sent and what the receiver answered. Kept for 30 days.</p>
        </div>
        <div className="log-tools">
          <select className="input select" aria-label="Filter deliveries by status" value={status} onChange={(e) => filter(e.target.value)}>
            <option value="">All deliveries</option>
            <option value="succeeded">Delivered</option>
            <option value="failed">Failed</option>
            <option value="pending">Queued or retrying</option>
            <option value="cancelled">Cancelled</option>
          </select>
          <Button onClick={() => void log.reload()}>Refresh</Button>
        </div>
      </div>
      {log.status === 'loading' ? <LoadingBlock label="Loading deliveries…" /> : null}
      {log.status === 'error' ? <LoadError error={log.error} onRetry={log.reload} /> : null}
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
      {log.status === 'ready' && log.data.meta.total > log.data.meta.per_page ? (
        <Pager meta={log.data.meta} requested={page} onPage={setPage} label="Delivery pages" />
      ) : null}
    </section>
  );
}
