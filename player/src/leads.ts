import { type LeadBody, type ViewerApi, ViewerError } from './api';
import { type Consent, consentedStorage, grantedConsent } from './consent';
import { uuid } from './tracker';

const MAX_BACKOFF_MS = 30_000;

/** What became of a sent form: stored, refused field by field, refused as a whole, or kept to resend. */
export type LeadResult =
  | { status: 'stored'; identified: boolean }
  | { status: 'invalid'; errors: Record<string, string>; message: string }
  | { status: 'refused'; message: string }
  | { status: 'queued' };

/**
 * Lead form submissions (POST /v1/viewer/:token/leads). Each gets its id once and stays in localStorage
 * until the server has answered it, so a dropped network, a closed tab or a reload never loses it: it is
 * resent with the same id (the server stores it once) with backoff, on page hide, and on the next visit.
 * Before the embedding page consents (docs/consent.md) the queue is in memory only, and written once it does.
 */
export function createLeads(api: Pick<ViewerApi, 'lead' | 'keepalive'>, token: string, consent: Consent = grantedConsent()) {
  const key = `demoshare:leads:${token}`;
  const stored = consentedStorage(consent, () => localStorage);
  let failures = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const load = (): LeadBody[] => {
    try {
      const list = JSON.parse(stored.get(key) ?? '[]') as unknown;
      return Array.isArray(list) ? (list as LeadBody[]) : [];
    } catch {
      return [];
    }
  };
  let queue: LeadBody[] = load();

  /** Blocked storage (third-party frames) or no consent: the lead lives as long as the page. */
  function save() {
    stored.set(key, JSON.stringify(queue));
  }

  consent.onChange((granted) => {
    if (!granted) return stored.remove(key);
    // Leads an earlier visit left unsent join the ones in memory, and are sent.
    const mine = new Set(queue.map((l) => l.id));
    const earlier = load().filter((l) => !mine.has(l.id));
    queue.push(...earlier);
    save();
    if (earlier.length) void flush();
  });

  const forget = (id: string) => {
    queue = queue.filter((l) => l.id !== id);
    save();
  };

  /** One attempt; a network failure, a 5xx, 408 or 429 keeps the lead queued. */
  async function send(lead: LeadBody): Promise<LeadResult> {
    try {
      const answer = await api.lead(lead);
      forget(lead.id);
      failures = 0;
      return { status: 'stored', identified: !!answer?.identified };
    } catch (err) {
      const status = err instanceof ViewerError ? err.status : 0;
      if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        forget(lead.id);
        const e = err as ViewerError;
        const errors: Record<string, string> = {};
        for (const d of e.details) if (d.field) errors[d.field.replace(/^values\./, '')] = d.message;
        return Object.keys(errors).length ? { status: 'invalid', errors, message: e.message } : { status: 'refused', message: e.message };
      }
      return { status: 'queued' };
    }
  }

  function retryLater() {
    if (timer !== null || queue.length === 0) return;
    failures++;
    timer = setTimeout(
      () => {
        timer = null;
        void flush();
      },
      Math.min(MAX_BACKOFF_MS, 1000 * 2 ** failures),
    );
  }

  async function flush() {
    for (const lead of [...queue]) {
      if ((await send(lead)).status === 'queued') return retryLater();
    }
  }

  if (queue.length) void flush();
  addEventListener('pagehide', () => {
    for (const lead of queue) void api.keepalive(lead, '/leads');
  });
  addEventListener('online', () => void flush());

  return {
    /** Sends a form's values (a new id each call: a corrected form is a new submission). */
    async submit(stepNumber: number, values: Record<string, string | boolean>): Promise<LeadResult> {
      const lead: LeadBody = { id: uuid(), step_number: stepNumber, values };
      queue.push(lead);
      save();
      const result = await send(lead);
      if (result.status === 'queued') retryLater();
      return result;
    },
    pending: () => queue as readonly LeadBody[],
  };
}

export type Leads = ReturnType<typeof createLeads>;
