import { useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { type NotificationSettings, notificationsApi } from '../../api/notifications.api';
import { Alert } from '../../components/alert';
import { SelectField } from '../../components/field';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { useHashAnchor } from '../../lib/use-hash-anchor';
import { useResource } from '../../lib/use-resource';
import { MailSetupHint } from '../../layout/mail-setup-hint';
import { useSession } from '../../session/session-context';

const MODES: Record<NotificationSettings['mode'], string> = {
  off: 'Off',
  instant: 'When an identified viewer opens a demo',
  daily: 'A daily digest (07:00 UTC)',
};
const SCOPES: Record<NotificationSettings['scope'], string> = {
  all: 'Every demo and hub of the workspace',
  mine: 'Only demos and hubs I created',
};

/**
 * E-mail about viewers, per workspace (each workspace has its own setting). Saved as it changes: two
 * choices do not need a Save button.
 */
export function NotificationsSection() {
  const { workspace, email_delivery: delivers } = useSession();
  const settings = useResource(() => notificationsApi.get());
  const notify = useToast();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const section = useRef<HTMLElement>(null);
  const ready = settings.status === 'ready';

  // E-mails link to /account#notifications.
  useHashAnchor(section, '#notifications', ready);

  async function change(patch: Partial<NotificationSettings>) {
    setError(null);
    setBusy(true);
    try {
      await notificationsApi.update(patch);
      await settings.reload();
      notify('Notifications saved');
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Your choice could not be saved. Try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="notifications-heading" id="notifications" ref={section}>
      <div className="card-header">
        <h2 id="notifications-heading">Notifications</h2>
      </div>
      <div className="card-body stack form-narrow">
        <p className="muted">
          E-mail about who views the demos of <strong>{workspace.name}</strong>. Views by members of the workspace are left
          out, and you never get more than one message a day about the same viewer on the same link (a hub: one per visit).
        </p>
        {delivers ? null : (
          <Alert tone="warning" title="This server cannot send e-mail">
            No notification would reach you, so they cannot be switched on. <MailSetupHint />
          </Alert>
        )}
        {error ? <Alert tone="danger">{error}</Alert> : null}
        {settings.status === 'loading' ? <LoadingBlock /> : null}
        {settings.status === 'error' ? <LoadError error={settings.error} onRetry={settings.reload} /> : null}
        {settings.status === 'ready' ? (
          <>
            <SelectField
              label="E-mail me"
              name="notification-mode"
              value={settings.data.mode}
              // Without e-mail only "Off" can be chosen (a choice made before SMTP went away can still be undone).
              disabled={busy || (!delivers && settings.data.mode === 'off')}
              onChange={(e) => void change({ mode: e.target.value as NotificationSettings['mode'] })}
              hint={
                settings.data.mode === 'daily'
                  ? 'Views, completions, new companies and who viewed, and who visited your hubs, about the day before; nothing on a quiet day.'
                  : 'Viewers are identified when a link or a hub asks for their name and e-mail address. Leads and hub visitors are e-mailed too.'
              }
            >
              {Object.entries(MODES).map(([value, label]) => (
                <option key={value} value={value} disabled={!delivers && value !== 'off'}>
                  {label}
                </option>
              ))}
            </SelectField>
            <SelectField
              label="About"
              name="notification-scope"
              value={settings.data.scope}
              disabled={busy || settings.data.mode === 'off'}
              onChange={(e) => void change({ scope: e.target.value as NotificationSettings['scope'] })}
            >
              {Object.entries(SCOPES).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </SelectField>
          </>
        ) : null}
      </div>
    </section>
  );
}
