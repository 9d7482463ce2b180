import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import { WEBHOOK_EVENT_KINDS, type Webhook, type WebhookWithSecret, webhooksApi } from '../../api/webhooks.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ChoicePicker } from '../../components/choice-picker';
import { CopyField } from '../../components/copy-field';
import { Dialog } from '../../components/dialog';
import { TextField } from '../../components/field';
import { formatDateTime } from '../../lib/format';

type EventKind = (typeof WEBHOOK_EVENT_KINDS)[number];
const isEventKind = (kind: string): kind is EventKind => (WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind);

/** What each event means, in the words of someone choosing what to receive. */
export const EVENT_DESCRIPTIONS: Record<EventKind, string> = {
  'demo.viewed': 'A viewer opened a demo',
  'demo.completed': 'A viewer reached the last step',
  'demo.created': 'A demo was created',
  'demo.updated': 'A demo’s title, steps or settings changed',
  'demo.published': 'A demo was published',
  'demo.deleted': 'A demo was deleted',
  'demo.generated': 'A demo generation finished or failed',
  'share.created': 'A share link was created',
  'share.revoked': 'A share link was revoked',
  'viewer.identified': 'A viewer filled in the viewer form',
  'member.invited': 'Someone was invited to the workspace',
  'webhook.test': 'Sent by “Send test”, ticked or not',
};

/** Every event kind as a checkbox with what it means, and a “Select all” that shows a partial choice. */
function EventPicker({ value, onChange, error }: { value: string[]; onChange(events: string[]): void; error?: string }) {
  return (
    <ChoicePicker
      name="events"
      legend="Events"
      hint="Demoshare sends one POST per event you tick."
      options={WEBHOOK_EVENT_KINDS}
      descriptions={EVENT_DESCRIPTIONS}
      value={value.filter(isEventKind)}
      onChange={onChange}
      error={error}
    />
  );
}

/** Field errors from the API, under the fields they name; a refused address says why in full. */
function apiFieldErrors(err: ApiError): Record<string, string> {
  const fields = err.fieldErrors();
  // Event errors name the position (events.1); show them under the list.
  const eventError = Object.entries(fields).find(([k]) => k.startsWith('events'))?.[1];
  if (eventError) fields.events = eventError;
  // The SSRF guard's detail is the bare reason ("10.1.2.3 is a private address"); its message adds what it means.
  const urlDetail = err.details.find((d) => d.field === 'url')?.message;
  if (urlDetail && err.message.includes(urlDetail)) fields.url = err.message;
  return fields;
}

/** Create (no `webhook`) or edit (URL and events) a webhook. */
export function WebhookFormDialog({
  webhook,
  onClose,
  onSaved,
}: {
  webhook?: Webhook;
  onClose(): void;
  onSaved(result: Webhook | WebhookWithSecret): void;
}) {
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<string[]>(webhook?.events ?? ['demo.viewed', 'demo.completed']);
  const [secret, setSecret] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const problems: Record<string, string> = {};
    if (!url.trim()) problems.url = 'Give the address that receives the events';
    if (events.length === 0) problems.events = 'Choose at least one event';
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const body = { url: url.trim(), events };
      onSaved(webhook ? await webhooksApi.update(webhook.id, body) : await webhooksApi.create(secret ? { ...body, secret } : body));
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.details.length > 0) setErrors(apiFieldErrors(err));
      else setFormError(err instanceof ApiError ? err.message : 'The webhook could not be saved.');
    }
  }

  return (
    <Dialog
      title={webhook ? 'Edit webhook' : 'Add a webhook'}
      description="Demoshare sends a signed POST to this address for each event you choose."
      size="lg"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="webhook-form" loading={busy}>
            {webhook ? 'Save changes' : 'Add webhook'}
          </Button>
        </>
      }
    >
      <form id="webhook-form" className="stack" onSubmit={submit} noValidate>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <TextField
          label="Endpoint URL"
          name="url"
          type="url"
          inputMode="url"
          placeholder="https://example.com/hooks/demoshare"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={errors.url}
          hint="A public http(s) address. Private and internal addresses are refused."
          autoComplete="off"
          spellCheck={false}
          required
        />
        <EventPicker value={events} onChange={setEvents} error={errors.events} />
        {webhook ? null : (
          <TextField
            label="Signing secret"
            name="secret"
            optional
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            error={errors.secret}
            hint="8 characters or more. Leave empty to have one generated; either way it is shown once, after you add the webhook."
            autoComplete="off"
            spellCheck={false}
            className="mono"
          />
        )}
      </form>
    </Dialog>
  );
}

/** The only time a webhook secret is shown: after creation or rotation. */
export function SecretRevealDialog({ webhook, rotated, onClose }: { webhook: WebhookWithSecret; rotated?: boolean; onClose(): void }) {
  const graceEnds = webhook.previous_secret_expires_at;
  return (
    <Dialog
      title={rotated ? 'Secret rotated' : 'Webhook added'}
      description={<span className="mono break-anywhere">{webhook.url}</span>}
      size="lg"
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="stack">
        <Alert tone="warning" title="Copy the secret now">
          You will not see it again: Demoshare keeps it encrypted and shows only its last characters. Verify deliveries with it:{' '}
          <code>X-Service-Signature</code> is the hex HMAC-SHA256 of the raw body.
        </Alert>
        <CopyField label="Signing secret" copyLabel="signing secret" value={webhook.secret} />
        <CopyField
          label="Standard Webhooks key (for standardwebhooks libraries)"
          copyLabel="Standard Webhooks key"
          value={webhook.standard_webhooks_secret}
        />
        {rotated ? (
          <Alert tone="info">
            {graceEnds
              ? `Until ${formatDateTime(graceEnds)} deliveries are signed with both the old and the new secret, so you can switch without losing events.`
              : 'For a while deliveries are signed with both the old and the new secret, so you can switch without losing events.'}
          </Alert>
        ) : null}
      </div>
    </Dialog>
  );
}
