import type { CompanyAnalytics, LinkAnalytics } from '../../api/analytics.api';
import { Badge } from '../../components/badge';
import { type Column, Table } from '../../components/table';
import { formatDateTime } from '../../lib/format';
import { formatCount, formatPercent } from './headline';

export const linkLabel = (l: LinkAnalytics) => l.name || `Link ${l.share_id.slice(-6)}`;
/** A personalised link's values, as `company: Acme · first_name: Dana`. */
export const variablesText = (variables: Record<string, string>) =>
  Object.entries(variables)
    .map(([name, value]) => `${name}: ${value}`)
    .join(' · ');
export const companyLabel = (c: CompanyAnalytics) => (c.kind === 'individuals' ? 'Individuals (personal e-mail)' : (c.company ?? ''));

const linkColumns: Column<LinkAnalytics>[] = [
  {
    key: 'link',
    header: 'Link',
    kind: 'primary',
    render: (l) => (
      <span className="cell-stack">
        <span>
          {linkLabel(l)}
          {l.revoked ? (
            <>
              {' '}
              <Badge tone="warning">Revoked</Badge>
            </>
          ) : null}
        </span>
        {Object.keys(l.variables).length > 0 ? <span className="cell-sub">{variablesText(l.variables)}</span> : null}
      </span>
    ),
  },
  { key: 'views', header: 'Views', kind: 'nowrap', render: (l) => formatCount(l.views) },
  { key: 'viewers', header: 'Unique viewers', kind: 'nowrap', render: (l) => formatCount(l.unique_viewers) },
  { key: 'completion', header: 'Completion', kind: 'nowrap', render: (l) => formatPercent(l.completion_rate) },
  { key: 'last', header: 'Last viewed', kind: 'nowrap', render: (l) => formatDateTime(l.last_viewed_at) },
];

/** Views per share link: with one link per prospect, this is which prospect engaged. */
export function LinksTable({ links }: { links: LinkAnalytics[] }) {
  return <Table caption="Views per share link" columns={linkColumns} rows={links} rowKey={(l) => l.share_id} />;
}

const companyColumns: Column<CompanyAnalytics>[] = [
  { key: 'company', header: 'Company', kind: 'primary', render: (c) => (c.kind === 'individuals' ? <span className="muted">{companyLabel(c)}</span> : companyLabel(c)) },
  { key: 'viewers', header: 'Viewers', kind: 'nowrap', render: (c) => formatCount(c.viewers) },
  { key: 'views', header: 'Views', kind: 'nowrap', render: (c) => formatCount(c.views) },
  { key: 'completion', header: 'Completion', kind: 'nowrap', render: (c) => formatPercent(c.completion_rate) },
  { key: 'last', header: 'Last seen', kind: 'nowrap', render: (c) => formatDateTime(c.last_seen_at) },
];

/** Identified viewers by the domain of their address; personal addresses (gmail.com…) share one row. */
export function CompaniesTable({ companies }: { companies: CompanyAnalytics[] }) {
  return <Table caption="Identified viewers by company" columns={companyColumns} rows={companies} rowKey={(c) => c.company ?? '(individuals)'} />;
}

export const companiesCsv = (companies: CompanyAnalytics[]) => ({
  header: ['company', 'kind', 'viewers', 'views', 'completions', 'completion_rate', 'last_seen_at'],
  rows: companies.map((c) => [c.company ?? '', c.kind, c.viewers, c.views, c.completions, c.completion_rate, c.last_seen_at]),
});
