import { useState } from 'react';
import { apiKeysApi } from '../../api/api-keys.api';
import type { ApiKey } from '../../api/types';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { KeyIcon, PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { Table } from '../../components/table';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';
import { useSession } from '../../session/session-context';
import { useCan } from '../../session/use-can';
import { CreateKeyDialog } from './create-key-dialog';
import { keyColumns } from './key-columns';
import { KeyRevealDialog, type Reveal } from './key-reveal-dialog';

export function ApiKeysPage() {
  const session = useSession();
  const notify = useToast();
  const seesEveryKey = useCan()('keys.manage_all');
  const keys = useResource(() => apiKeysApi.list());
  const [creating, setCreating] = useState(false);
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const [rotating, setRotating] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const rows = keys.data?.rows ?? [];
  const columns = keyColumns({
    showOwner: seesEveryKey,
    ownEmail: session.user.email,
    ownMemberId: session.member_id,
    onRotate: setRotating,
    onRevoke: setRevoking,
  });
  // The rotated key's grace period comes from the reloaded list, so the dialog states the real end.
  const graceEndsAt = reveal?.rotated ? rows.find((k) => k.replaced_by === reveal.key.id)?.expires_at : undefined;

  return (
    <section className="stack" aria-labelledby="keys-title">
      <div className="section-header">
        <div>
          <h2 id="keys-title">API keys</h2>
          <p className="muted">
            Keys let your servers call the Demoshare API as you. {seesEveryKey ? 'As an admin you see and can revoke every key of the workspace; only its owner rotates a key.' : 'You see the keys you created.'}
          </p>
        </div>
        {rows.length > 0 ? (
          <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
            Create key
          </Button>
        ) : null}
      </div>

      {keys.status === 'loading' ? <LoadingBlock label="Loading keys…" /> : null}
      {keys.status === 'error' ? <LoadError error={keys.error} onRetry={keys.reload} /> : null}
      {keys.status === 'ready' && rows.length === 0 ? (
        <EmptyState
          icon={<KeyIcon size={24} />}
          title="No API keys yet"
          action={
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
              Create key
            </Button>
          }
        >
          Create a key to connect your CRM, data warehouse or scripts. You choose exactly what each key may do.
        </EmptyState>
      ) : null}
      {rows.length > 0 ? <Table caption="API keys" columns={columns} rows={rows} rowKey={(k) => k.id} /> : null}

      {creating ? (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={async (key) => {
            setCreating(false);
            setReveal({ key });
            await keys.reload();
          }}
        />
      ) : null}
      {reveal ? <KeyRevealDialog reveal={reveal.rotated ? { ...reveal, rotated: { ...reveal.rotated, graceEndsAt } } : reveal} onClose={() => setReveal(null)} /> : null}
      {rotating ? (
        <ConfirmDialog
          title={`Rotate “${rotating.name}”?`}
          confirmLabel="Rotate key"
          onClose={() => setRotating(null)}
          onConfirm={async () => {
            const fresh = await apiKeysApi.rotate(rotating.id);
            setRotating(null);
            setReveal({ key: fresh, rotated: { name: rotating.name } });
            await keys.reload();
          }}
        >
          <p>
            A new key with the same name and scopes is issued. The current key keeps working for 24 hours, then stops, so you have time to
            update what uses it.
          </p>
        </ConfirmDialog>
      ) : null}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke “${revoking.name}”?`}
          confirmLabel="Revoke key"
          danger
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await apiKeysApi.revoke(revoking.id);
            setRevoking(null);
            notify(`Key “${revoking.name}” revoked`);
            await keys.reload();
          }}
        >
          <p>
            The key <code>{`${revoking.prefix}…${revoking.last_four}`}</code> stops working immediately: anything still using it gets 401 errors.
            This cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
