import { type FormEvent, useState } from 'react';
import { type ViewerErasure, viewerPrivacyApi } from '../../api/viewer-privacy.api';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/field';
import { useToast } from '../../components/toast';
import { ErasureReach, erasedNothing } from './erasure-reach';

/** The result's counts, in the words of the confirm dialog, and in its order. */
const RESULT_ROWS: Array<[keyof ViewerErasure, string]> = [
  ['views', 'Views'],
  ['step_times', 'Step times'],
  ['viewer_sessions', 'Viewer sessions'],
  ['dedup_ids', 'Event ids kept against duplicates'],
  ['access_log_entries', 'Access-log entries'],
  ['webhook_events', 'Webhook events blanked'],
  ['webhook_deliveries', 'Webhook delivery bodies blanked'],
  ['webhook_deliveries_cancelled', 'Webhook deliveries cancelled'],
  ['notification_records', 'Notification records'],
  ['crm_sync_items', 'HubSpot sync log entries'],
  ['leads', 'Leads'],
  ['demos_recomputed', 'Demos whose analytics were rebuilt'],
];

/**
 * Settings → Workspace → Viewer privacy (admins): erase what the workspace recorded about one viewer, after a
 * confirm that says what goes and what stays, then the counts of what went.
 */
export function ViewerErasureSection() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<string | null>(null);
  const [result, setResult] = useState<{ email: string; counts: ViewerErasure } | null>(null);
  const notify = useToast();

  function ask(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(address)) {
      setError('Enter the viewer’s e-mail address');
      return;
    }
    setResult(null);
    setConfirming(address);
  }

  async function erase(address: string) {
    const counts = await viewerPrivacyApi.erase(address);
    setConfirming(null);
    setEmail('');
    setResult({ email: address, counts });
    notify(erasedNothing(counts) ? 'Nothing was recorded for that address' : 'Viewer data erased');
  }

  return (
    <section className="card" aria-labelledby="viewer-privacy-heading">
      <div className="card-header">
        <h2 id="viewer-privacy-heading">Viewer privacy</h2>
      </div>
      <div className="card-body stack">
        <p className="muted">
          Erase everything this workspace recorded about one viewer, for example when they ask you to. Analytics are
          recalculated without them.
        </p>
        <form className="stack form-narrow" onSubmit={ask} noValidate>
          <TextField
            label="Viewer e-mail"
            name="viewer-email"
            type="email"
            autoComplete="off"
            value={email}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(undefined);
            }}
            error={error}
          />
          <div>
            <Button type="submit" variant="danger">
              Erase viewer data…
            </Button>
          </div>
        </form>
        {result ? (
          <div className="stack" aria-live="polite">
            <p>
              Erased <strong>{result.email}</strong>:
            </p>
            <dl className="details" aria-label="What was erased">
              {RESULT_ROWS.map(([field, label]) => (
                <div key={field}>
                  <dt>{label}</dt>
                  <dd>{result.counts[field]}</dd>
                </div>
              ))}
            </dl>
          </div>
        ) : null}
      </div>
      {confirming ? (
        <ConfirmDialog
          title="Erase this viewer’s data?"
          confirmLabel="Erase"
          danger
          onConfirm={() => erase(confirming)}
          onClose={() => setConfirming(null)}
        >
          <p>
            Everything this workspace recorded about <strong>{confirming}</strong> goes, for good:
          </p>
          <ErasureReach />
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
