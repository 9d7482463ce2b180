import { useEffect, useState } from 'react';
import { crmApi, type SyncItem } from '../../api/crm.api';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { LoadError } from '../../components/load-error';
import { Pager } from '../../components/pager';
import { LoadingBlock } from '../../components/spinner';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

const TONE: Record<SyncItem['status'], BadgeTone> = { pending: 'warning', syncing: 'accent', succeeded: 'success', failed: 'danger' };
const LABEL: Record<SyncItem['status'], string> = { pending: 'Waiting', syncing: 'Sending', succeeded: 'Synced', failed: 'Failed' };
const EVENT: Record<SyncItem['event'], string> = {
  'viewer.identified': 'Identified',
  'demo.viewed': 'Viewed a demo',
  'demo.completed': 'Finished a demo',
  'lead.captured': 'Sent a form',
  history: 'Earlier activity',
};

/** What happened to the contact, in words: created or updated, the note added, or why not yet. */
function outcome(item: SyncItem): string {
  const parts: string[] = [];
  if (item.contact_action) parts.push(`contact ${item.contact_action}`);
  if (item.note_id) parts.push('note added');
  else if (item.note && item.status === 'succeeded') parts.push('no note');
  if (item.status === 'pending' && item.attempts > 0) parts.push(`${item.attempts} failed attempt${item.attempts === 1 ? '' : 's'}, retrying`);
  if (item.status === 'pending' && item.next_attempt_at && !item.last_error?.startsWith('paused:')) parts.push(`next try ${formatDateTime(item.next_attempt_at)}`);
  return parts.join(' · ');
}

/** The sync log: one row per event sent to HubSpot, newest first, with a status filter and pages. */
export function HubSpotSyncLog({ version }: { version: number }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const log = useResource(() => crmApi.log({ page, ...(status ? { status } : {}) }));
  // biome-ignore lint/correctness/useExhaustiveDependencies: reload when the page, the filter or the sync moves on
  useEffect(() => {
    void log.reload();
  }, [page, status, version]);
  const rows = log.status === 'ready' ? log.data.rows : [];

  return (
    <section className="stack delivery-log" aria-labelledby="sync-log-title">
      <div className="log-header">
        <div>
          <h3 id="sync-log-title">Sync log</h3>
          <p className="muted">Each event sent to HubSpot: the contact, what was done to it, and HubSpot’s answer when it failed.</p>
        </div>
        <div className="log-tools">
          <select
            className="input select"
            aria-label="Filter the sync log by status"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}
          >
            <option value="">All items</option>
            <option value="succeeded">Synced</option>
            <option value="failed">Failed</option>
            <option value="pending">Waiting</option>
          </select>
          <Button onClick={() => void log.reload()}>Refresh</Button>
        </div>
      </div>
      {log.status === 'loading' ? <LoadingBlock label="Loading the sync log…" /> : null}
      {log.status === 'error' ? <LoadError error={log.error} onRetry={log.reload} /> : null}
      {log.status === 'ready' && rows.length === 0 ? (
        <EmptyState title={status ? 'No items match' : 'Nothing synced yet'}>
          {status ? 'Choose “All items” to see the others.' : 'Identified viewers, views, completions and leads appear here as they are sent.'}
        </EmptyState>
      ) : null}
      {rows.length > 0 ? (
        <ul className="delivery-list" aria-label="Sync log">
          {rows.map((item) => (
            <li key={item.id} className="card delivery">
              <div className="delivery-summary">
                <div className="delivery-what">
                  <Badge tone={TONE[item.status]}>{LABEL[item.status]}</Badge>
                  <span className="delivery-event">{EVENT[item.event]}</span>
                </div>
                <p className="delivery-meta">
                  <strong className="sync-email">{item.email}</strong> · <time dateTime={item.occurred_at}>{formatDateTime(item.occurred_at)}</time>
                  {outcome(item) ? ` · ${outcome(item)}` : ''}
                </p>
              </div>
              {item.last_error && item.status !== 'succeeded' ? <p className="delivery-error">{item.last_error}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {log.status === 'ready' && log.data.meta.total > log.data.meta.per_page ? (
        <Pager meta={log.data.meta} requested={page} onPage={setPage} label="Sync log pages" />
      ) : null}
    </section>
  );
}
