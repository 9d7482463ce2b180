import type { WebhookAttempt, WebhookDelivery } from '../../api/webhooks.api';
import type { BadgeTone } from '../../components/badge';
import { formatDateTime } from '../../lib/format';

export const STATUS_TONE: Record<WebhookDelivery['status'], BadgeTone> = {
  pending: 'accent',
  delivering: 'accent',
  succeeded: 'success',
  failed: 'danger',
  cancelled: 'neutral',
};

export function statusLabel(d: WebhookDelivery): string {
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

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** One line on what happened: attempts so far, the last status code, when the next try is. */
export function progressText(d: WebhookDelivery): string {
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

export const pretty = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
};

export const headerText = (headers: Record<string, string> | null) =>
  headers
    ? Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join('\n')
    : '';

export function attemptResult(a: WebhookAttempt): { tone: BadgeTone; text: string } {
  if (a.status_code !== null) return { tone: a.outcome === 'succeeded' ? 'success' : 'danger', text: `HTTP ${a.status_code}` };
  if (a.outcome === 'lost') return { tone: 'warning', text: 'Outcome unknown' };
  return { tone: 'danger', text: 'No response' };
}
