import { useState } from 'react';
import { workspaceApi } from '../../api/workspace.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Checkbox, SelectField } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { useToast } from '../../components/toast';
import type { SectionProps } from './workspace-name-section';

export const EXPIRY_DAYS = [1, 7, 14, 30, 60, 90, 180, 365];

/** What a new share link starts with, in the web app and for API clients that leave the options out. */
export function ShareDefaultsSection({ settings, canManage, onSaved }: SectionProps) {
  const defaults = settings.share_defaults;
  const [identify, setIdentify] = useState(defaults.require_identification);
  const [days, setDays] = useState(defaults.expires_in_days === null ? 'never' : String(defaults.expires_in_days));
  const notify = useToast();
  const expiresInDays = days === 'never' ? null : Number(days);
  const changed = identify !== defaults.require_identification || expiresInDays !== defaults.expires_in_days;
  const choices = [...new Set([...EXPIRY_DAYS, ...(defaults.expires_in_days ? [defaults.expires_in_days] : [])])].sort((a, b) => a - b);

  const form = useFormSubmit({
    send: () => workspaceApi.update({ share_defaults: { require_identification: identify, expires_in_days: expiresInDays } }),
    onDone: async (next) => {
      await onSaved(next);
      notify('Share-link defaults saved');
    },
    failure: 'The defaults could not be saved. Try again.',
    staysOpen: true,
  });

  return (
    <section className="card" aria-labelledby="share-defaults-heading">
      <div className="card-header">
        <h2 id="share-defaults-heading">New share links</h2>
        <p className="muted">What every new link starts with. Whoever makes a link can still change it; existing links stay as they are.</p>
      </div>
      <div className="card-body">
        <form className="stack form-narrow" onSubmit={form.submit} noValidate aria-label="Share-link defaults">
          {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
          <Checkbox
            label="Ask viewers for their name and e-mail"
            description="So you know who watched: in the access log, in analytics and in notifications."
            checked={identify}
            disabled={!canManage}
            onChange={(e) => setIdentify(e.target.checked)}
          />
          <SelectField label="Links expire" name="expires-in-days" value={days} disabled={!canManage} onChange={(e) => setDays(e.target.value)}>
            <option value="never">Never</option>
            {choices.map((n) => (
              <option key={n} value={String(n)}>
                {n === 1 ? 'After 1 day' : `After ${n} days`}
              </option>
            ))}
          </SelectField>
          {canManage ? (
            <div>
              <Button type="submit" variant="primary" loading={form.busy} disabled={!changed}>
                Save defaults
              </Button>
            </div>
          ) : null}
        </form>
      </div>
    </section>
  );
}
