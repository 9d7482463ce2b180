import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import type { SlackMessage, slackApi } from '../../api/slack.api';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { LoadError } from '../../components/load-error';
import { Pager } from '../../components/pager';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { ALERT_LABELS } from './slack-alerts-form';

const TONE: Record<SlackMessage['status'], BadgeTone> = { pending: 'accent', sending: 'accent', sent: 'success', failed: 'danger', cancelled: 'neutral' };
const LABEL: Record<SlackMessage['status'], string> = { pending: 'Queued', sending: 'Sending', sent: 'Sent', failed: 'Failed', cancelled: 'Cancelled' };
const POLL_MS = 1500;
const IDLE_POLL_MS = 10_000;

/** Slack writes `&amp;` for what it shows as `&`: the log shows it as the channel does. */
const asShown = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

function progress(m: SlackMessage): string {
  const tries = `${m.attempts} ${m.attempts === 1 ? 'attempt' : 'attempts'}`;
  if (m.status === 'pending' && m.attempts > 0 && m.next_attempt_at) return `${tries}; next ${formatDateTime(m.next_attempt_at)}`;
  if (m.status === 'pending') return 'waiting to be sent';
  return m.last_status_code ? `${tries}, Slack answered ${m.last_status_code}` : tries;
}

/** What went to the channel: each alert, its state and Slack's last answer, with Retry for a failed one; pages; looks again while one is on its way. */
export function SlackMessageLog({ api, version, enabled }: { api: ReturnType<typeof slackApi>; version: number; enabled: boolean }) {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const [retrying, setRetrying] = useState<string | null>(null);
  const notify = useToast();
  const log = useResource(() => api.messages(page, status || undefined));
  const { reload } = log;
  const rows = log.data?.rows ?? [];

  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page, filter and saves are what the log depends on
  useEffect(() => {
    if (mounted.current) void reload();
    mounted.current = true;
  }, [reload, page, status, version]);

  // Soon while a message is on its way; otherwise now and then, so new alerts show up on an open page.
  useEffect(() => {
    const busy = (log.data?.rows ?? []).some((m) => m.status === 'pending' || m.status === 'sending');
    const timer = setTimeout(() => void reload(), busy ? POLL_MS : IDLE_POLL_MS);
    return () => clearTimeout(timer);
  }, [log.data, reload]);

  async function retry(m: SlackMessage) {
    setRetrying(m.id);
    try {
      await api.retry(m.id);
      notify('Queued to be sent again');
      await reload();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'The message could not be queued again.', 'danger');
    } finally {
      setRetrying(null);
    }
  }

  return (
    <section className="stack delivery-log" aria-labelledby="slack-log-title">
      <div className="log-header">
        <div>
          <h3 id="slack-log-title">Message log</h3>
          <p className="muted">Each alert sent to the channel and what Slack answered. Failures are retried on a schedule; kept for 30 days.</p>
        </div>
        <div className="log-tools">
          <select className="input select" aria-label="Filter messages by status" value={status} onChange={(e) => {
              setStatus(e.target.value);
              setPage(1);
            }}>
            <option value="">All messages</option>
            <option value="sent">Sent</option>
            <option value="failed">Failed</option>
            <option value="pending">Queued or retrying</option>
            <option value="cancelled">Cancelled</option>
          </select>
          <Button onClick={() => void reload()}>Refresh</Button>
        </div>
      </div>
      {log.status === 'loading' ? <LoadingBlock label="Loading messages…" /> : null}
      {log.status === 'error' ? <LoadError error={log.error} onRetry={reload} /> : null}
      {log.status === 'ready' && rows.length === 0 ? (
        <EmptyState title={status ? 'No messages match' : 'No alerts yet'}>
          {status ? 'Choose “All messages” to see the others.' : 'Alerts appear here as viewers open demos, finish them or send a form.'}
        </EmptyState>
      ) : null}
      {rows.length > 0 ? (
        <ul className="delivery-list" aria-label="Slack messages">
          {rows.map((m) => (
            <li key={m.id} className="card delivery">
              <div className="delivery-summary">
                <div className="delivery-what">
                  <Badge tone={TONE[m.status]}>{LABEL[m.status]}</Badge>
                  <span className="chip">{ALERT_LABELS[m.alert]}</span>
                </div>
                <p className="delivery-meta">
                  <time dateTime={m.created_at}>{formatDateTime(m.created_at)}</time> · {progress(m)}
                </p>
                {m.status === 'failed' || m.status === 'cancelled' ? (
                  <div className="delivery-actions">
                    <Button size="sm" disabled={!enabled} loading={retrying === m.id} onClick={() => void retry(m)}>
                      Retry
                    </Button>
                  </div>
                ) : null}
              </div>
              <p className="slack-summary">{asShown(m.summary)}</p>
              {m.last_error && m.status !== 'sent' ? <p className="delivery-error">{m.last_error}</p> : null}
            </li>
          ))}
        </ul>
      ) : null}
      {log.status === 'ready' && log.data.meta.total > log.data.meta.per_page ? (
        <Pager meta={log.data.meta} requested={page} onPage={setPage} label="Message pages" />
      ) : null}
    </section>
  );
}
