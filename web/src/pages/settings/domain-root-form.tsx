import { useState } from 'react';
import { type Domain, domainsApi } from '../../api/domains.api';
import { type Hub, hubsApi } from '../../api/hubs.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';

const NOTHING = 'nothing';
const OTHER = 'other';

/** A hub's address on this domain: the hub answers on every verified domain of its workspace. */
const hubAddress = (domain: Domain, hub: Hub) => `${domain.url}${new URL(hub.url).pathname}`;

/**
 * Where a visitor who types the domain itself lands (PATCH /v1/domains/:id, `root_url`): nowhere (a "Nothing
 * here" page), one of the workspace's hubs on this domain, or any other address, such as the company's site.
 */
export function DomainRootForm({ domain, onChanged }: { domain: Domain; onChanged(): Promise<void> }) {
  const hubs = useResource(() => hubsApi.list());
  const hubList = hubs.status === 'ready' ? hubs.data.rows : [];
  const chosenHub = hubList.find((hub) => hubAddress(domain, hub) === domain.root_url);
  const initial = domain.root_url === null ? NOTHING : chosenHub ? chosenHub.id : OTHER;
  const [choice, setChoice] = useState<string | null>(null);
  const [other, setOther] = useState<string | null>(null);
  const selected = choice ?? initial;
  const otherUrl = other ?? (initial === OTHER ? (domain.root_url ?? '') : '');
  const notify = useToast();

  const target = (): string | null => {
    if (selected === NOTHING) return null;
    if (selected === OTHER) return otherUrl.trim();
    const hub = hubList.find((h) => h.id === selected);
    return hub ? hubAddress(domain, hub) : null;
  };
  const form = useFormSubmit({
    validate: (): Record<string, string> =>
      selected === OTHER && !/^https?:\/\/\S+$/i.test(otherUrl.trim()) ? { root_url: 'Enter an address starting with https://' } : {},
    send: () => domainsApi.update(domain.id, { root_url: target() }),
    onDone: async (updated) => {
      setChoice(null);
      setOther(null);
      await onChanged();
      notify(updated.root_url ? `${updated.hostname} now leads to ${updated.root_url}` : `${updated.hostname} leads nowhere of its own`);
    },
    failure: 'The change could not be saved. Try again.',
    staysOpen: true,
  });
  const unchanged = target() === domain.root_url;

  return (
    <form className="stack form-narrow" onSubmit={form.submit} noValidate aria-label={`Root of ${domain.hostname}`}>
      {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
      <SelectField
        label={`When someone opens ${domain.hostname} itself`}
        name="root_choice"
        value={selected}
        hint={domain.status === 'verified' ? undefined : 'Takes effect once the domain is verified.'}
        onChange={(e) => {
          setChoice(e.target.value);
          form.clearError('root_url');
        }}
      >
        <option value={NOTHING}>Show “Nothing here”</option>
        {hubList.map((hub) => (
          <option key={hub.id} value={hub.id}>
            Open the hub “{hub.name}”
          </option>
        ))}
        <option value={OTHER}>Send to another address…</option>
      </SelectField>
      {selected === OTHER ? (
        <TextField
          label="Address"
          name="root_url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://www.example.com"
          value={otherUrl}
          error={form.errors.root_url}
          onChange={(e) => {
            setOther(e.target.value);
            form.clearError('root_url');
          }}
        />
      ) : form.errors.root_url ? (
        <Alert tone="danger">{form.errors.root_url}</Alert>
      ) : null}
      <div>
        <Button type="submit" variant="secondary" loading={form.busy} disabled={unchanged}>
          Save
        </Button>
      </div>
    </form>
  );
}
