import { useState } from 'react';
import { crmApi } from '../../api/crm.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { useToast } from '../../components/toast';
import { formatDateTime } from '../../lib/format';

/** Earlier activity: every address identified before the connection, as a contact with one note summing it up. */
export function HubSpotBackfill({ connectedAt, onQueued }: { connectedAt: string | null; onQueued(): Promise<void> }) {
  const [since, setSince] = useState('');
  const notify = useToast();
  const form = useFormSubmit({
    send: () => crmApi.backfill(since ? { since } : {}),
    onDone: async (result) => {
      await onQueued();
      if (result.contacts === 0) notify('No identified viewer before the connection: nothing to send');
      else if (result.queued === 0) notify(`All ${result.contacts} contacts were sent by an earlier backfill`);
      else notify(result.queued === 1 ? '1 contact queued for HubSpot' : `${result.queued} contacts queued for HubSpot`);
    },
    failure: 'The earlier activity could not be queued. Try again.',
    staysOpen: true,
  });
  return (
    <section className="card" aria-labelledby="backfill-heading">
      <div className="card-header">
        <h2 id="backfill-heading">Earlier activity</h2>
        <p className="muted">
          HubSpot gets views, forms and hub visits since the connection{connectedAt ? ` (${formatDateTime(connectedAt)})` : ''}. Send what
          came before it: each viewer identified earlier becomes a contact, with one note listing the demos they viewed and the forms they
          sent. A contact already sent this way is not sent twice.
        </p>
      </div>
      <div className="card-body">
        <form className="stack form-narrow" onSubmit={form.submit} noValidate aria-label="Send earlier activity">
          {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
          <TextField
            label="Activity since"
            name="since"
            type="date"
            optional
            hint="Empty: all of it."
            value={since}
            error={form.errors.since}
            onChange={(e) => {
              setSince(e.target.value);
              form.clearError('since');
            }}
          />
          <div className="row">
            <Button type="submit" loading={form.busy}>
              Send earlier activity
            </Button>
          </div>
        </form>
      </div>
    </section>
  );
}
