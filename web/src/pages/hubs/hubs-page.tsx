import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { type Hub, hubsApi } from '../../api/hubs.api';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { FormDialog, useFormSubmit } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { formatDate } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';
import './hubs.css';

/** What a hub asks of viewers, in a few words. */
export function gateText(hub: Hub): string {
  const parts = [hub.has_password ? 'Password' : null, hub.lead_fields.length > 0 ? 'Lead form' : hub.require_identification ? 'Identification' : null];
  return parts.filter(Boolean).join(' + ') || 'Open';
}

function NewHubDialog({ onClose }: { onClose(): void }) {
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [intro, setIntro] = useState('');
  const form = useFormSubmit({
    validate: (): Record<string, string> => (name.trim() ? {} : { name: 'Give the hub a name' }),
    send: () => hubsApi.create({ name: name.trim(), ...(intro.trim() ? { intro: intro.trim() } : {}) }),
    onDone: (hub) => navigate(`/hubs/${hub.id}`),
    failure: 'The hub could not be created.',
  });
  return (
    <FormDialog id="new-hub" title="New demo hub" description="A branded page of your demos, in collections, with search." submitLabel="Create hub" form={form} onClose={onClose}>
      <FormTextField form={form} name="name" label="Name" hint="Also the page's title; you can change both later." value={name} onValue={setName} autoFocus />
      <FormTextField form={form} name="intro" label="Intro" optional value={intro} onValue={setIntro} />
    </FormDialog>
  );
}

/** Hubs: the workspace's demo centres, each a page of demos behind the gates of a link. */
export function HubsPage() {
  const hubs = useResource(() => hubsApi.list());
  const allowed = useCan();
  const [creating, setCreating] = useState(false);
  const rows = hubs.data?.rows ?? [];
  const columns: Column<Hub>[] = [
    {
      key: 'name',
      header: 'Hub',
      kind: 'primary',
      render: (h) => (
        <span className="cell-stack">
          <Link to={`/hubs/${h.id}`}>{h.name}</Link>
          <span className="cell-sub">{h.title}</span>
        </span>
      ),
    },
    { key: 'gate', header: 'Access', kind: 'nowrap', render: (h) => <Badge tone={gateText(h) === 'Open' ? 'neutral' : 'accent'}>{gateText(h)}</Badge> },
    { key: 'created', header: 'Created', kind: 'nowrap', render: (h) => formatDate(h.created_at) },
    {
      key: 'open',
      header: <span className="visually-hidden">Open</span>,
      kind: 'actions',
      render: (h) => (
        <a className="btn btn-ghost btn-sm" href={h.url} target="_blank" rel="noopener">
          View page
        </a>
      ),
    },
  ];
  const create = allowed('shares.write') ? (
    <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
      New hub
    </Button>
  ) : null;
  return (
    <>
      <PageHeader title="Hubs" description="Demo centres: your demos on one branded page, in collections, with search and the gates of a link." actions={rows.length > 0 ? create : null} />
      {hubs.status === 'loading' ? <LoadingBlock label="Loading hubs…" /> : null}
      {hubs.status === 'error' ? <LoadError error={hubs.error} onRetry={hubs.reload} /> : null}
      {hubs.status === 'ready' && rows.length === 0 ? (
        <EmptyState title="No hubs yet" action={create}>
          Put your demos on one page for prospects to explore at their own pace: a hero, collections, cards with covers, and every view counted.
        </EmptyState>
      ) : null}
      {rows.length > 0 ? <Table caption="Hubs" columns={columns} rows={rows} rowKey={(h) => h.id} /> : null}
      {creating ? <NewHubDialog onClose={() => setCreating(false)} /> : null}
    </>
  );
}
