import { useState } from 'react';
import { crmApi } from '../../api/crm.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { useToast } from '../../components/toast';

/** Re-sync: one contact, everything since a date, or the whole log; notes are never made twice. */
export function HubSpotResync({ onQueued }: { onQueued(): Promise<void> }) {
  const [email, setEmail] = useState('');
  const [since, setSince] = useState('');
  const notify = useToast();
  const form = useFormSubmit({
    send: () => crmApi.resync({ ...(email.trim() ? { email: email.trim() } : {}), ...(since ? { since } : {}) }),
    onDone: async (result) => {
      await onQueued();
      notify(result.queued === 1 ? '1 item queued for HubSpot' : `${result.queued} items queued for HubSpot`);
    },
    failure: 'The re-sync could not start. Try again.',
    staysOpen: true,
  });
  return (
    <section className="card" aria-labelledby="resync-heading">
      <div className="card-header">
        <h2 id="resync-heading">Re-sync</h2>
        <p className="muted">
          Sends finished items again: each contact is updated again, and a note is added only where none was recorded. Leave both fields empty
          to re-sync everything in the log.
        </p>
      </div>
      <div className="card-body">
        <form className="stack form-narrow" onSubmit={form.submit} noValidate aria-label="Re-sync">
          {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
          <TextField
            label="Contact e-mail"
            name="email"
            type="email"
            autoComplete="off"
            optional
            value={email}
            error={form.errors.email}
            onChange={(e) => {
              setEmail(e.target.value);
              form.clearError('email');
            }}
          />
          <TextField
            label="Events since"
            name="since"
            type="date"
            optional
            value={since}
            error={form.errors.since}
            onChange={(e) => {
              setSince(e.target.value);
              form.clearError('since');
            }}
          />
          <div className="row">
            <Button type="submit" loading={form.busy}>
              Re-sync
            </Button>
          </div>
        </form>
      </div>
    </section>
  );
}
