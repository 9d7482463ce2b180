import { useState } from 'react';
import { ApiError } from '../../api/client';
import { type Domain, domainsApi } from '../../api/domains.api';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { LoadError } from '../../components/load-error';
import { DomainRootForm } from './domain-root-form';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { formatRelative } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

/**
 * Settings → Workspace → Custom domains: the workspace's own host names for its share links, hubs and embeds
 * (admins only). A section of the workspace page, beside the branding it is served with, rather than a tab:
 * an admin's tabs must all fit a 390 px phone.
 */
export function DomainsSection() {
  const domains = useResource(() => domainsApi.list());
  return (
    <div className="stack" id="domains">
      <AddDomain onAdded={domains.reload} />
      {domains.status === 'loading' ? <LoadingBlock /> : null}
      {domains.status === 'error' ? <LoadError error={domains.error} onRetry={domains.reload} /> : null}
      {domains.status === 'ready'
        ? domains.data.rows.map((domain) => (
            <DomainCard key={domain.id} domain={domain} linksDomain={domains.data.rows.find((d) => d.primary)} onChanged={domains.reload} />
          ))
        : null}
    </div>
  );
}

function AddDomain({ onAdded }: { onAdded(): Promise<void> }) {
  const [hostname, setHostname] = useState('');
  const notify = useToast();
  const form = useFormSubmit({
    validate: (): Record<string, string> => (hostname.trim() ? {} : { hostname: 'Enter a domain, such as demos.example.com' }),
    send: () => domainsApi.add({ hostname: hostname.trim() }),
    onDone: async (added) => {
      setHostname('');
      await onAdded();
      notify(`${added.hostname} added: create its DNS records, then verify it`);
    },
    failure: 'The domain could not be added. Try again.',
    staysOpen: true,
  });
  return (
    <section className="card" aria-labelledby="add-domain-heading">
      <div className="card-header">
        <h2 id="add-domain-heading">Custom domains</h2>
        <p className="muted">
          Share links, hubs and embeds on your own address, such as demos.example.com, in your brand. Add the domain, create the DNS records
          shown, then verify it: once verified, new and existing links use it. With several, choose the one links use: the others keep
          serving the links already sent.
        </p>
      </div>
      <div className="card-body">
        <form className="stack form-narrow" onSubmit={form.submit} noValidate aria-label="Add a domain">
          {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
          <TextField
            label="Domain"
            name="hostname"
            autoComplete="off"
            inputMode="url"
            placeholder="demos.example.com"
            value={hostname}
            error={form.errors.hostname}
            onChange={(e) => {
              setHostname(e.target.value);
              form.clearError('hostname');
            }}
          />
          <div>
            <Button type="submit" variant="primary" loading={form.busy}>
              Add domain
            </Button>
          </div>
        </form>
      </div>
    </section>
  );
}

const STATUS = {
  verified: { tone: 'success', label: 'Verified' },
  pending: { tone: 'warning', label: 'Not verified yet' },
  failed: { tone: 'danger', label: 'Records missing' },
} as const;

/** One domain; `linksDomain` is the workspace's domain that links use (`primary`), if it has one. */
function DomainCard({ domain, linksDomain, onChanged }: { domain: Domain; linksDomain: Domain | undefined; onChanged(): Promise<void> }) {
  const [verifying, setVerifying] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const notify = useToast();
  const status = STATUS[domain.status];

  async function verify() {
    setVerifying(true);
    setError(null);
    try {
      const checked = await domainsApi.verify(domain.id);
      await onChanged();
      notify(checked.status === 'verified' ? `${checked.hostname} is verified` : `${checked.hostname} is not verified yet`);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The check could not run. Try again.');
    } finally {
      setVerifying(false);
    }
  }

  async function useForLinks() {
    setChoosing(true);
    setError(null);
    try {
      const chosen = await domainsApi.update(domain.id, { primary: true });
      await onChanged();
      notify(`Links now use ${chosen.hostname}; ${linksDomain ? `${linksDomain.hostname} keeps serving the links already sent` : 'nothing else changes'}`);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The change could not be saved. Try again.');
    } finally {
      setChoosing(false);
    }
  }

  return (
    <section className="card" aria-label={domain.hostname}>
      <div className="card-header domain-header">
        <h3 className="domain-name">{domain.hostname}</h3>
        <Badge tone={status.tone}>{status.label}</Badge>
        {domain.primary ? <Badge tone="accent">Used for links</Badge> : null}
      </div>
      <div className="card-body stack">
        {error ? <Alert tone="danger">{error}</Alert> : null}
        {domain.status === 'verified' ? (
          <p>
            {domain.primary || !linksDomain ? (
              <>
                Your links use <strong>{domain.url}</strong>
              </>
            ) : (
              <>
                Serves the links opened on it; your links use <strong>{linksDomain.url}</strong>
              </>
            )}
            {domain.last_checked_at ? ` · checked ${formatRelative(domain.last_checked_at)}` : ''}.
          </p>
        ) : (
          <p className="muted">Create one of these records at your DNS provider (the TXT record proves the domain is yours), then verify.</p>
        )}
        {domain.last_error ? (
          <Alert tone={domain.status === 'verified' ? 'warning' : 'info'} title="Last check">
            {domain.last_error}
          </Alert>
        ) : null}
        <div className="table-wrap">
          <table className="table domain-records">
            <caption className="visually-hidden">DNS records for {domain.hostname}</caption>
            <thead>
              <tr>
                <th scope="col">Type</th>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
              </tr>
            </thead>
            <tbody>
              {domain.records.map((record) => (
                <tr key={record.type}>
                  <td>{record.type}</td>
                  <td>
                    <code>{record.name}</code>
                  </td>
                  <td>
                    <code>{record.value}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <DomainRootForm domain={domain} onChanged={onChanged} />
        <div className="row row-wrap">
          {domain.status === 'verified' && !domain.primary ? (
            <Button variant="primary" loading={choosing} onClick={useForLinks}>
              Use for links
            </Button>
          ) : null}
          <Button variant={domain.status === 'verified' ? 'secondary' : 'primary'} loading={verifying} onClick={verify}>
            Verify now
          </Button>
          <Button variant="danger" onClick={() => setRemoving(true)}>
            Remove
          </Button>
        </div>
      </div>
      {removing ? (
        <ConfirmDialog
          title={`Remove ${domain.hostname}?`}
          confirmLabel="Remove domain"
          danger
          onClose={() => setRemoving(false)}
          onConfirm={async () => {
            await domainsApi.remove(domain.id);
            setRemoving(false);
            await onChanged();
            notify(`${domain.hostname} removed`);
          }}
        >
          Links opened on this domain will stop working at once.
          {domain.primary
            ? ' Your links move to your oldest other verified domain, or back to this server’s own address.'
            : ''}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
