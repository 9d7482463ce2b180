import { useState } from 'react';
import type { ApiError } from '../../api/client';
import { WEBHOOK_EVENT_KINDS, type Webhook, type WebhookWithSecret, webhooksApi } from '../../api/webhooks.api';
import { Alert } from '../../components/alert';
import { ChoicePicker } from '../../components/choice-picker';
import { TextField } from '../../components/field';
import { type FieldErrors, FormDialog, useFormSubmit } from '../../components/form-dialog';
import { SecretReveal, SecretRevealDialog } from '../../components/secret-reveal';
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
  'demo.stale': 'A stale-demo check found steps that no longer match their pages',
  'share.created': 'A share link was created',
  'share.revoked': 'A share link was revoked',
  'viewer.identified': 'A viewer gave their name and e-mail, on a link or a demo hub',
  'lead.captured': 'A viewer sent a lead form in a demo',
  'member.invited': 'Someone was invited to the workspace',
  'webhook.test': 'Sent by “Send test”, ticked or not',
  'audit.entry': 'Every new audit log entry, for a security team’s SIEM',
};

/** Every event kind as a checkbox with what it means, and a “Select all” that shows a partial choice. */
function EventPicker({ value, onChange, error }: { value: EventKind[]; onChange(events: EventKind[]): void; error?: string }) {
  return (
    <ChoicePicker
      name="events"
      legend="Events"
      hint="Demoshare sends one POST per event you tick."
      options={WEBHOOK_EVENT_KINDS}
      descriptions={EVENT_DESCRIPTIONS}
      value={value}
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
  if (urlDetail && err.apiMessage.includes(urlDetail)) fields.url = err.apiMessage;
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
  const [events, setEvents] = useState<EventKind[]>((webhook?.events ?? ['demo.viewed', 'demo.completed']).filter(isEventKind));
  const [secret, setSecret] = useState('');
  const form = useFormSubmit<Webhook | WebhookWithSecret>({
    validate() {
      const problems: FieldErrors = {};
      if (!url.trim()) problems.url = 'Give the address that receives the events';
      if (events.length === 0) problems.events = 'Choose at least one event';
      return problems;
    },
    send() {
      const body = { url: url.trim(), events };
      return webhook ? webhooksApi.update(webhook.id, body) : webhooksApi.create(secret ? { ...body, secret } : body);
    },
    onDone: onSaved,
    failure: 'The webhook could not be saved.',
    fieldErrors: (err) => (err.details.length > 0 ? apiFieldErrors(err) : null),
  });
  const { errors } = form;

  return (
    <FormDialog
      id="webhook-form"
      title={webhook ? 'Edit webhook' : 'Add a webhook'}
      description="Demoshare sends a signed POST to this address for each event you choose."
      size="lg"
      onClose={onClose}
      submitLabel={webhook ? 'Save changes' : 'Add webhook'}
      form={form}
    >
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
    </FormDialog>
  );
}

/** The only time a webhook secret is shown: after creation or rotation. */
export function WebhookSecretDialog({ webhook, rotated, onClose }: { webhook: WebhookWithSecret; rotated?: boolean; onClose(): void }) {
  const graceEnds = webhook.previous_secret_expires_at;
  return (
    <SecretRevealDialog
      title={rotated ? 'Secret rotated' : 'Webhook added'}
      description={<span className="mono break-anywhere">{webhook.url}</span>}
      onClose={onClose}
    >
      <SecretReveal
        warning="Copy the secret now"
        secrets={[
          { label: 'Signing secret', copyLabel: 'signing secret', value: webhook.secret },
          { label: 'Standard Webhooks key (for standardwebhooks libraries)', copyLabel: 'Standard Webhooks key', value: webhook.standard_webhooks_secret },
        ]}
      >
        You will not see it again: Demoshare keeps it encrypted and shows only its last characters. Verify deliveries with it:{' '}
        <code>X-Service-Signature</code> is the hex HMAC-SHA256 of the raw body.
      </SecretReveal>
      {rotated ? (
        <Alert tone="info">
          {graceEnds
            ? `Until ${formatDateTime(graceEnds)} deliveries are signed with both the old and the new secret, so you can switch without losing events.`
            : 'For a while deliveries are signed with both the old and the new secret, so you can switch without losing events.'}
        </Alert>
      ) : null}
    </SecretRevealDialog>
  );
}
