import { useState } from 'react';
import type { SlackAlert, SlackOwner, SlackSettings, SlackTestResult, slackApi } from '../../api/slack.api';
import { ApiError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Checkbox, SelectField, TextField } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { useToast } from '../../components/toast';
import { formatDateTime } from '../../lib/format';

export const ALERTS: readonly SlackAlert[] = ['viewer_opened', 'lead_captured', 'demo_finished', 'daily_digest'];
export const ALERT_LABELS: Record<SlackAlert, string> = {
  viewer_opened: 'Identified viewer opened a demo',
  lead_captured: 'Lead captured',
  demo_finished: 'Demo finished',
  daily_digest: 'Daily digest',
};
const ALERT_DESCRIPTIONS: Record<SlackAlert, string> = {
  viewer_opened: 'Who, from which company, which demo and link, with a button to their journey.',
  lead_captured: 'The form’s answers and the step it was sent on; a hub’s form too, with a button to its visitors.',
  demo_finished: 'Someone reached the last step, and how long it took.',
  daily_digest: 'At 07:05 UTC: yesterday’s views, completions, new companies and who viewed, and the hubs’ visits and visitors.',
};

/** Where the alerts go and which: the URL (checked by a test message when saved), the choices, test and remove. */
export function SlackAlertsForm({
  owner,
  api,
  settings,
  onSaved,
}: {
  owner: SlackOwner;
  api: ReturnType<typeof slackApi>;
  settings: SlackSettings;
  onSaved(): Promise<void>;
}) {
  const [url, setUrl] = useState('');
  const [alerts, setAlerts] = useState<SlackAlert[]>(settings.connected ? settings.alerts : ['viewer_opened', 'lead_captured']);
  const [scope, setScope] = useState(settings.scope);
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<SlackTestResult | null>(null);
  const [removing, setRemoving] = useState(false);
  const notify = useToast();

  const form = useFormSubmit({
    validate: (): Record<string, string> => (!url.trim() && !settings.connected ? { url: 'Paste the incoming-webhook URL Slack gave you' } : {}),
    send: () => api.save({ ...(url.trim() ? { url: url.trim() } : {}), alerts, ...(owner === 'account' ? { scope } : {}) }),
    onDone: async () => {
      const tested = Boolean(url.trim());
      setUrl('');
      setResult(null);
      await onSaved();
      notify(tested ? 'Saved: a test message went to the channel' : 'Slack alerts saved');
    },
    failure: 'The settings could not be saved. Try again.',
    staysOpen: true,
  });

  async function test() {
    setTesting(true);
    setResult(null);
    try {
      const answer = await api.test();
      setResult(answer);
      if (answer.ok) await onSaved();
    } catch (err) {
      setResult({ ok: false, status_code: null, error: err instanceof ApiError ? err.message : 'The test could not run. Try again.' });
    } finally {
      setTesting(false);
    }
  }

  return (
    <>
      <State settings={settings} />
      <form className="stack form-narrow" onSubmit={form.submit} noValidate aria-label="Slack alerts">
        {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
        <TextField
          label="Incoming-webhook URL"
          name="url"
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={settings.connected ? `Saved: ${settings.url_hint}` : 'https://hooks.slack.com/services/…'}
          value={url}
          error={form.errors.url}
          hint={
            <>
              In Slack: Apps → Incoming Webhooks → Add to Slack, pick the channel, copy the URL. It is checked with a test message when you save, stored
              encrypted and never shown again.{settings.connected ? ' Leave empty to keep the saved one.' : ''}
            </>
          }
          onChange={(e) => {
            setUrl(e.target.value);
            form.clearError('url');
          }}
        />
        <fieldset className="field">
          <legend className="field-label">Alerts</legend>
          <p className="field-hint">Views by members of the workspace are never posted.</p>
          <div className="stack slack-alerts">
            {ALERTS.map((alert) => (
              <Checkbox
                key={alert}
                label={ALERT_LABELS[alert]}
                description={ALERT_DESCRIPTIONS[alert]}
                name="alerts"
                value={alert}
                checked={alerts.includes(alert)}
                onChange={(e) => setAlerts(ALERTS.filter((a) => (a === alert ? e.target.checked : alerts.includes(a))))}
              />
            ))}
          </div>
        </fieldset>
        {owner === 'account' ? (
          <SelectField label="About" name="scope" value={scope} onChange={(e) => setScope(e.target.value as SlackSettings['scope'])}>
            <option value="all">Every demo and hub of the workspace</option>
            <option value="mine">Only demos and hubs I created</option>
          </SelectField>
        ) : null}
        {result ? (
          result.ok ? (
            <Alert tone="success" title="Test message sent">
              Slack took it: look in the channel.
            </Alert>
          ) : (
            <Alert tone="danger" title="Slack did not take the test message">
              {result.error}
            </Alert>
          )
        ) : null}
        <div className="row row-wrap">
          <Button type="submit" variant="primary" loading={form.busy}>
            {settings.connected ? 'Save' : 'Connect Slack'}
          </Button>
          {settings.connected ? (
            <>
              <Button onClick={test} loading={testing} disabled={form.busy}>
                Send a test message
              </Button>
              <Button variant="ghost" onClick={() => setRemoving(true)} disabled={form.busy}>
                Disconnect
              </Button>
            </>
          ) : null}
        </div>
      </form>
      {removing ? (
        <ConfirmDialog
          title="Disconnect Slack?"
          confirmLabel="Disconnect"
          danger
          onClose={() => setRemoving(false)}
          onConfirm={async () => {
            await api.remove();
            setRemoving(false);
            setResult(null);
            await onSaved();
            notify('Slack disconnected');
          }}
        >
          The URL and the message log are deleted; no more alerts go to the channel.
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/** Connected, disabled by Slack, or not yet. */
function State({ settings }: { settings: SlackSettings }) {
  if (settings.status === 'disabled') {
    return (
      <Alert tone="danger" title="Slack stopped taking messages">
        {settings.disabled_reason}
        {settings.disabled_at ? ` (${formatDateTime(settings.disabled_at)})` : ''}. The webhook was removed or its channel archived: nothing is sent
        until you save a working URL, or a test message goes through.
      </Alert>
    );
  }
  if (settings.status === 'active') {
    return (
      <Alert tone="success" title="Connected">
        Alerts go to the channel of <code>{settings.url_hint}</code>
        {settings.last_delivery_at ? `; the last one was taken ${formatDateTime(settings.last_delivery_at)}` : ''}.
      </Alert>
    );
  }
  return null;
}
