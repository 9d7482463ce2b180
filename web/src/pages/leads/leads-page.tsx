import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { demosApi } from '../../api/demos.api';
import { type Lead, type LeadFilters, leadsApi } from '../../api/leads.api';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { MailIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import './leads.css';

const PER_PAGE = 25;
const EMPTY: LeadFilters = { demo_id: '', start_date: '', end_date: '' };
/** Shown in their own columns: the rest of the answers go under "Fields". */
const OWN_COLUMNS = new Set(['email', 'name']);

/** A lead's other answers, as the form's field names and what was typed (consent boxes as yes/no). */
function LeadValues({ lead }: { lead: Lead }) {
  const entries = Object.entries(lead.values).filter(([name]) => !OWN_COLUMNS.has(name));
  if (entries.length === 0) return <span className="cell-sub">—</span>;
  return (
    <dl className="lead-values">
      {entries.map(([name, value]) => (
        <div key={name} style={{ display: 'contents' }}>
          <dt>{name}</dt>
          <dd>{typeof value === 'boolean' ? (value ? 'yes' : 'no') : value}</dd>
        </div>
      ))}
    </dl>
  );
}

const columns: Column<Lead>[] = [
  {
    key: 'email',
    header: 'E-mail',
    kind: 'primary',
    render: (l) => (
      <span className="cell-stack">
        {l.email ? <a href={`mailto:${l.email}`}>{l.email}</a> : <span className="cell-sub">—</span>}
        {l.identified ? null : (
          <span className="cell-sub">
            <Badge>Not identified</Badge>
          </span>
        )}
      </span>
    ),
  },
  { key: 'name', header: 'Name', render: (l) => l.name ?? <span className="cell-sub">—</span> },
  {
    key: 'demo',
    header: 'Demo',
    render: (l) => (
      <span className="cell-stack">
        <Link to={`/demos/${l.demo.id}/analytics`}>{l.demo.title || 'Untitled demo'}</Link>
        <span className="cell-sub">{`Step ${l.step_number}`}</span>
      </span>
    ),
  },
  { key: 'link', header: 'Link', render: (l) => (l.share ? l.share.name || 'Unnamed link' : <span className="cell-sub">Deleted link</span>) },
  { key: 'fields', header: 'Fields', kind: 'grow', render: (l) => <LeadValues lead={l} /> },
  { key: 'time', header: 'Time', kind: 'nowrap', render: (l) => <time dateTime={l.created_at}>{formatDateTime(l.created_at)}</time> },
];

/** Leads: what viewers sent through the demos' lead forms, newest first, with filters and a CSV export. */
export function LeadsPage() {
  const [params] = useSearchParams();
  // The lead e-mails link here with their demo already chosen.
  const initial = { ...EMPTY, demo_id: params.get('demo_id') ?? '' };
  const [draft, setDraft] = useState<LeadFilters>(initial);
  const [filters, setFilters] = useState<LeadFilters>(initial);
  const [page, setPage] = useState(1);
  const leads = useResource(async () => leadsApi.list(filters, page, PER_PAGE));
  const demos = useResource(async () => (await demosApi.list({ page: 1, per_page: 100 })).rows);
  const { reload } = leads;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters and page are what the list depends on
  useEffect(() => {
    void reload();
  }, [filters, page, reload]);

  const filtered = Object.values(filters).some(Boolean);

  function apply(next: LeadFilters) {
    setDraft(next);
    setFilters(next);
    setPage(1);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    apply(draft);
  }

  const field = (name: keyof LeadFilters) => ({
    value: draft[name] ?? '',
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });

  return (
    <>
      <PageHeader
        title="Leads"
        description="Who filled in the forms of your demos, and what they answered."
        actions={
          <a className="btn btn-secondary" href={leadsApi.csvUrl(filters)} download>
            Download CSV
          </a>
        }
      />
      <div className="stack">
        <form className="leads-filters" onSubmit={submit} aria-label="Filter the leads">
          <div className="leads-filter">
            <label className="field-label" htmlFor="leads-demo">
              Demo
            </label>
            <select id="leads-demo" className="input select" {...field('demo_id')}>
              <option value="">All demos</option>
              {(demos.data ?? []).map((d) => (
                <option key={d.id} value={d.id}>
                  {d.title || 'Untitled demo'}
                </option>
              ))}
            </select>
          </div>
          <label className="leads-filter">
            <span className="field-label">From</span>
            <input className="input" type="date" {...field('start_date')} />
          </label>
          <label className="leads-filter">
            <span className="field-label">To</span>
            <input className="input" type="date" {...field('end_date')} />
          </label>
          <div className="leads-filter-actions">
            <Button type="submit" variant="primary">
              Apply
            </Button>
            {filtered ? <Button onClick={() => apply(EMPTY)}>Clear</Button> : null}
          </div>
        </form>
        {leads.status === 'loading' ? <LoadingBlock label="Loading leads…" /> : null}
        {leads.status === 'error' ? <LoadError error={leads.error} onRetry={leads.reload} /> : null}
        {leads.status === 'ready' && leads.data.rows.length === 0 ? (
          <EmptyState icon={<MailIcon size={24} />} title={filtered ? 'No leads match' : 'No leads yet'}>
            {filtered
              ? 'Try another demo or a wider date range.'
              : 'Add a form step to a demo and publish it: what viewers send through it appears here, and in the CSV export.'}
          </EmptyState>
        ) : null}
        {leads.status === 'ready' && leads.data.rows.length > 0 ? (
          <>
            <Table caption="Leads" columns={columns} rows={leads.data.rows} rowKey={(l) => l.id} />
            <Pager meta={leads.data.meta} requested={page} onPage={setPage} noun={['lead', 'leads']} size="sm" />
          </>
        ) : null}
      </div>
    </>
  );
}
