import { useEffect, useState } from 'react';
import { crmApi, type HubSpotStatus } from '../../api/crm.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';
import { HubSpotBackfill } from './hubspot-backfill';
import { HubSpotResync } from './hubspot-resync';
import { HubSpotSyncLog } from './hubspot-sync-log';

/** Settings → HubSpot: connect with a private-app token, see the sync and its log, re-sync (admins only). */
export function HubSpotSettingsPage() {
  const allowed = useCan();
  if (!allowed('crm.manage')) {
    return <Alert tone="info">Only admins of this workspace can connect HubSpot. Ask one to set it up in Settings → HubSpot.</Alert>;
  }
  return <HubSpotForAdmins />;
}

function HubSpotForAdmins() {
  const status = useResource(() => crmApi.status());
  const [version, setVersion] = useState(0);
  const connected = status.status === 'ready' && status.data.connected;
  const busy = status.status === 'ready' && status.data.counts.pending + status.data.counts.syncing > 0;
  // While connected, the page follows the sync on its own: status and log every few seconds, faster while items wait.
  useEffect(() => {
    if (!connected) return;
    const timer = setInterval(
      () => {
        void status.reload();
        setVersion((v) => v + 1);
      },
      busy ? 2000 : 5000,
    );
    return () => clearInterval(timer);
  }, [connected, busy, status.reload]);
  const changed = async () => {
    await status.reload();
    setVersion((v) => v + 1);
  };
  return (
    <div className="stack">
      {status.status === 'loading' ? <LoadingBlock /> : null}
      {status.status === 'error' ? <LoadError error={status.error} onRetry={status.reload} /> : null}
      {status.status === 'ready' ? (
        <>
          <StatusAlert status={status.data} />
          <ConnectForm status={status.data} onSaved={changed} />
          {status.data.connected ? (
            <>
              <HubSpotBackfill connectedAt={status.data.connected_at} onQueued={changed} />
              <HubSpotResync onQueued={changed} />
              <HubSpotSyncLog version={version} />
            </>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

function StatusAlert({ status }: { status: HubSpotStatus }) {
  const { counts } = status;
  if (status.status === 'paused') {
    return (
      <Alert tone="danger" title="Sync paused">
        {status.paused_reason}. Events are kept: save a working token below and they are sent. {counts.pending} waiting.
      </Alert>
    );
  }
  if (status.status === 'active') {
    return (
      <Alert tone="success" title="HubSpot is connected">
        Identified viewers and leads become HubSpot contacts; views, completions and forms go to their timelines.{' '}
        {counts.succeeded} synced, {counts.pending + counts.syncing} waiting, {counts.failed} failed
        {status.last_sync_at ? ` · last sync ${formatDateTime(status.last_sync_at)}` : ''}
        {status.rate_limited_until ? ` · HubSpot asked to wait until ${formatDateTime(status.rate_limited_until)}` : ''}.
      </Alert>
    );
  }
  return (
    <Alert tone="info" title="HubSpot is not connected">
      Connect a HubSpot private app to turn identified viewers and leads into contacts, with their views, completions and forms on each
      contact’s timeline.
    </Alert>
  );
}

function ConnectForm({ status, onSaved }: { status: HubSpotStatus; onSaved(): Promise<void> }) {
  const [token, setToken] = useState('');
  const [removing, setRemoving] = useState(false);
  const notify = useToast();
  const form = useFormSubmit({
    validate: (): Record<string, string> => (token.trim() ? {} : { token: 'Paste the private app’s access token' }),
    send: () => crmApi.connect({ token: token.trim() }),
    onDone: async () => {
      setToken('');
      await onSaved();
      notify(status.connected ? 'HubSpot token replaced' : 'HubSpot connected');
    },
    failure: 'HubSpot could not be connected. Try again.',
    staysOpen: true,
  });

  return (
    <section className="card" aria-labelledby="hubspot-heading">
      <div className="card-header">
        <h2 id="hubspot-heading">Private app token</h2>
        <p className="muted">
          In HubSpot: Settings → Integrations → Private apps → Create a private app, with the scopes <code>crm.objects.contacts.read</code> and{' '}
          <code>crm.objects.contacts.write</code>. Copy its access token here; HubSpot is asked once to check it before it is saved.
        </p>
      </div>
      <div className="card-body">
        <form className="stack form-narrow" onSubmit={form.submit} noValidate aria-label="HubSpot token">
          {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
          <TextField
            label="Access token"
            name="token"
            type="password"
            autoComplete="off"
            placeholder={status.token_last4 ? `Saved token ending in ${status.token_last4}` : 'pat-na1-…'}
            value={token}
            error={form.errors.token}
            hint="Stored encrypted and never shown again."
            onChange={(e) => {
              setToken(e.target.value);
              form.clearError('token');
            }}
          />
          <div className="row">
            <Button type="submit" variant="primary" loading={form.busy}>
              {status.connected ? 'Replace token' : 'Connect HubSpot'}
            </Button>
            {status.connected ? (
              <Button variant="ghost" onClick={() => setRemoving(true)} disabled={form.busy}>
                Disconnect
              </Button>
            ) : null}
          </div>
        </form>
      </div>
      {removing ? (
        <ConfirmDialog
          title="Disconnect HubSpot?"
          confirmLabel="Disconnect"
          danger
          onClose={() => setRemoving(false)}
          onConfirm={async () => {
            await crmApi.disconnect();
            setRemoving(false);
            await onSaved();
            notify('HubSpot disconnected');
          }}
        >
          The token, the sync log and anything still waiting are deleted here. Contacts and notes already in HubSpot stay there.
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
