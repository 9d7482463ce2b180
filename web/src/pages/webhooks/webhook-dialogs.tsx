import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import { WEBHOOK_EVENT_KINDS, type Webhook, type WebhookWithSecret, webhooksApi } from '../../api/webhooks.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { CopyField } from '../../components/copy-field';
import { Dialog } from '../../components/dialog';
import { Checkbox, TextField } from '../../components/field';

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

  const toggle = (kind: string, on: boolean) =>
    setEvents((current) => (on ? [...current, kind] : current.filter((k) => k !== kind)));

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
      onSaved(
        webhook
          ? await webhooksApi.update(webhook.id, body)
          : await webhooksApi.create(secret ? { ...body, secret } : body),
      );
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.details.length > 0) {
        const fields = err.fieldErrors();
        // Event errors name the position (events.1); show them under the list.
        const eventError = Object.entries(fields).find(([k]) => k.startsWith('events'))?.[1];
        setErrors(eventError ? { ...fields, events: eventError } : fields);
      } else setFormError(err instanceof ApiError ? err.message : 'The webhook could not be saved.');
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
          <Button variant="primary" type="submit" form="webhook-form" disabled={busy}>
            {webhook ? 'Save' : 'Add webhook'}
          </Button>
        </>
      }
    >
      <form id="webhook-form" className="stack" onSubmit={submit} noValidate>
        {formError ? <Alert tone="danger">{formError}</Alert> : null}
        <TextField
          label="Endpoint URL"
          type="url"
          placeholder="https://example.com/hooks/demoshare"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={errors.url}
          hint="A public http(s) address. Private and internal addresses are refused."
          required
        />
        <fieldset className="stack">
          <legend className="field-label">Events</legend>
          <div className="event-grid">
            {WEBHOOK_EVENT_KINDS.map((kind) => (
              <Checkbox key={kind} label={<code>{kind}</code>} checked={events.includes(kind)} onChange={(e) => toggle(kind, e.target.checked)} />
            ))}
          </div>
          {errors.events ? <p className="field-error">{errors.events}</p> : null}
        </fieldset>
        {webhook ? null : (
          <TextField
            label="Signing secret"
            optional
            value={secret}
            onChange={(e) => setSecret(e.target.value)}
            error={errors.secret}
            hint="Leave empty to have one generated. It is shown once, after you add the webhook."
            autoComplete="off"
          />
        )}
      </form>
    </Dialog>
  );
}

/** The only time a webhook secret is shown: after creation or rotation. */
export function SecretRevealDialog({ webhook, rotated, onClose }: { webhook: WebhookWithSecret; rotated?: boolean; onClose(): void }) {
  return (
    <Dialog
      title={rotated ? 'Secret rotated' : 'Webhook added'}
      description={webhook.url}
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
          You will not see it again. Verify deliveries with it: <code>X-Service-Signature</code> is the hex HMAC-SHA256 of the raw body.
        </Alert>
        <CopyField label="Signing secret" value={webhook.secret} />
        <CopyField label="Standard Webhooks key (for standardwebhooks libraries)" value={webhook.standard_webhooks_secret} />
        {rotated ? (
          <Alert tone="info">For the next 24 hours deliveries are signed with both the old and the new secret, so you can switch without losing events.</Alert>
        ) : null}
      </div>
    </Dialog>
  );
}
