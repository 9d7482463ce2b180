import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { type Webhook, type WebhookDelivery, webhooksApi } from '../../api/webhooks.api';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';

/** How soon the log looks again while a delivery is queued or being sent, and at the latest while one waits for a retry. */
const POLL_MS = 1500;
const MAX_POLL_MS = 60_000;

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
 * A webhook's deliveries, newest first, one page and status filter at a time. It reloads when `version`
 * changes (a test was sent) and looks again every moment while a delivery is queued or being sent;
 * `onSettled` hears when the last one in flight has finished (the webhook's own figures changed).
 */
export function useDeliveryLog(hook: Webhook, version: number, onSettled: () => void) {
  const notify = useToast();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState('');
  const [redelivering, setRedelivering] = useState<string | null>(null);
  const log = useResource(() => webhooksApi.deliveries(hook.id, page, status || undefined));
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

  return {
    log,
    page,
    setPage,
    status,
    /** A new filter starts again from the first page. */
    filter(next: string) {
      setStatus(next);
      setPage(1);
    },
    redelivering,
    redeliver,
  };
}
