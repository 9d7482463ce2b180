import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type WebhookWithSecret, webhooksApi } from '../../api/webhooks.api';
import { Alert } from '../../components/alert';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { DeliveryLog } from './delivery-log';
import { useWebhook } from './use-webhook';
import { WebhookFormDialog, WebhookSecretDialog } from './webhook-dialogs';
import { WebhookSummary } from './webhook-summary';
import { disabledText } from './webhooks-page';

/** Settings → Webhooks → one webhook: its settings, actions and delivery log. */
export function WebhookDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const notify = useToast();
  const { resource, switching, testing, logVersion, setActive, test } = useWebhook(id);
  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [reveal, setReveal] = useState<WebhookWithSecret | null>(null);

  if (resource.status === 'loading') return <LoadingBlock label="Loading webhook…" />;
  // A malformed id in the address (400) is as unknown as a deleted webhook (404).
  if (resource.status === 'error' && resource.error.status !== 404 && resource.error.status !== 400) {
    return <LoadError error={resource.error} onRetry={resource.reload} />;
  }
  const hook = resource.status === 'ready' ? resource.data : undefined;
  if (!hook) {
    return (
      <Alert tone="warning" title="Webhook not found">
        It may have been deleted. <Link to="/settings/webhooks">Back to webhooks</Link>
      </Alert>
    );
  }

  return (
    <div className="stack">
      <p>
        <Link to="/settings/webhooks">← Webhooks</Link>
      </p>
      {!hook.active ? (
        <Alert tone={hook.disabled_reason === 'manual' ? 'info' : 'danger'} title="This webhook is disabled">
          {disabledText(hook)}
        </Alert>
      ) : null}
      <WebhookSummary
        hook={hook}
        testing={testing}
        switching={switching}
        actions={{
          test: () => void test(hook),
          edit: () => setEditing(true),
          rotate: () => setRotating(true),
          toggle: () => void setActive(hook, !hook.active),
          remove: () => setDeleting(true),
        }}
      />
      <DeliveryLog hook={hook} version={logVersion} onSettled={() => void resource.reload()} />

      {editing ? (
        <WebhookFormDialog
          webhook={hook}
          onClose={() => setEditing(false)}
          onSaved={async () => {
            setEditing(false);
            notify('Webhook saved');
            await resource.reload();
          }}
        />
      ) : null}
      {reveal ? <WebhookSecretDialog webhook={reveal} rotated onClose={() => setReveal(null)} /> : null}
      {rotating ? (
        <ConfirmDialog
          title="Rotate the signing secret?"
          confirmLabel="Rotate secret"
          onClose={() => setRotating(false)}
          onConfirm={async () => {
            const fresh = await webhooksApi.rotate(hook.id);
            setRotating(false);
            setReveal(fresh);
            await resource.reload();
          }}
        >
          <p>A new secret is made and shown once. For a grace period (24 hours by default) deliveries carry signatures for both, then only for the new one.</p>
        </ConfirmDialog>
      ) : null}
      {deleting ? (
        <ConfirmDialog
          title="Delete this webhook?"
          confirmLabel="Delete webhook"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await webhooksApi.remove(hook.id);
            notify('Webhook deleted');
            navigate('/settings/webhooks');
          }}
        >
          <p>
            <code className="break-anywhere">{hook.url}</code> stops receiving events at once, and its delivery log is deleted. This cannot be
            undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
