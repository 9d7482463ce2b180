import { type FormEvent, useEffect, useState } from 'react';
import { AUDIT_ACTIONS, type AuditEntry, type AuditFilters, auditApi } from '../../api/audit.api';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { LoadError } from '../../components/load-error';
import { Pager } from '../../components/pager';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';

const PER_PAGE = 25;
const EMPTY: AuditFilters = { actor: '', action: '', target: '', start_date: '', end_date: '' };

const ACTOR_KINDS: Record<AuditEntry['actor']['type'], string> = {
  user: 'User',
  api_key: 'API key',
  oauth_app: 'OAuth app',
  system: 'System',
};

/** `{role: {from, to}}` as "role: editor → viewer", the rest as compact JSON. */
function describeChanges(changes: Record<string, unknown>): string {
  return Object.entries(changes)
    .map(([key, value]) => {
      if (value && typeof value === 'object' && !Array.isArray(value) && 'from' in value && 'to' in value) {
        const { from, to } = value as { from: unknown; to: unknown };
        return `${key}: ${JSON.stringify(from)} → ${JSON.stringify(to)}`;
      }
      return `${key}: ${JSON.stringify(value)}`;
    })
    .join('; ');
}

/** Settings → Audit log: who did what in the workspace, for admins, with filters and a CSV export. */
export function AuditLogPage() {
  const [draft, setDraft] = useState<AuditFilters>(EMPTY);
  const [filters, setFilters] = useState<AuditFilters>(EMPTY);
  const [page, setPage] = useState(1);
  const entries = useResource(async () => auditApi.list(filters, page, PER_PAGE));
  const { reload } = entries;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters and page are what the list depends on
  useEffect(() => {
    void reload();
  }, [filters, page, reload]);

  const filtered = Object.values(filters).some(Boolean);

  function apply(next: AuditFilters) {
    setDraft(next);
    setFilters(next);
    setPage(1);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    apply({ ...draft, actor: draft.actor?.trim(), target: draft.target?.trim() });
  }

  const field = (name: keyof AuditFilters) => ({
    value: draft[name] ?? '',
    onChange: (e: { target: { value: string } }) => setDraft({ ...draft, [name]: e.target.value }),
  });

  const columns: Column<AuditEntry>[] = [
    { key: 'time', header: 'Time', kind: 'nowrap', render: (e) => <time dateTime={e.created_at}>{formatDateTime(e.created_at)}</time> },
    { key: 'action', header: 'Action', kind: 'nowrap', render: (e) => <code>{e.action}</code> },
    {
      key: 'actor',
      header: 'Actor',
      kind: 'primary',
      render: (e) => (
        <span className="cell-stack">
          {e.actor.id ? (
            <button type="button" className="link-button" title="Show only this actor" onClick={() => apply({ ...filters, actor: e.actor.id! })}>
              {e.actor.label}
            </button>
          ) : (
            <strong>{e.actor.label}</strong>
          )}
          <span className="cell-sub">
            <Badge>{ACTOR_KINDS[e.actor.type]}</Badge>
          </span>
        </span>
      ),
    },
    {
      key: 'target',
      header: 'Target',
      render: (e) => (
        <span className="cell-stack">
          {e.target.id ? (
            <button type="button" className="link-button" title="Show only this target" onClick={() => apply({ ...filters, target: e.target.id! })}>
              {e.target.label || e.target.id}
            </button>
          ) : (
            <span>{e.target.label ?? '—'}</span>
          )}
          <span className="cell-sub">{e.target.type}</span>
        </span>
      ),
    },
    { key: 'changes', header: 'Details', kind: 'grow', render: (e) => <span className="cell-sub break-anywhere">{describeChanges(e.changes) || '—'}</span> },
    {
      key: 'origin',
      header: 'From',
      render: (e) => (
        <span className="cell-stack">
          <code className="cell-sub">{e.ip ?? '—'}</code>
          {e.user_agent ? (
            <span className="cell-sub audit-agent" title={e.user_agent}>
              {e.user_agent}
            </span>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <section className="stack" aria-labelledby="audit-title">
      <div className="section-header">
        <div>
          <h2 id="audit-title">Audit log</h2>
          <p className="muted">
            Security-relevant actions in this workspace: sign-ins and account changes of its members, keys, members and invitations, publishing, share links, hubs, A/B tests, webhooks, OAuth apps and custom domains.
            Entries cannot be edited or deleted; they are kept for the server's retention period.
          </p>
        </div>
        <a className="btn btn-secondary" href={auditApi.csvUrl(filters)} download>
          Download CSV
        </a>
      </div>
      <form className="audit-filters" onSubmit={submit} aria-label="Filter the audit log">
        <label className="audit-filter">
          <span className="field-label">Action</span>
          <select className="input select" {...field('action')}>
            <option value="">All actions</option>
            {AUDIT_ACTIONS.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label className="audit-filter">
          <span className="field-label">Actor id</span>
          <input className="input" placeholder="usr_…, key_… or app_…" {...field('actor')} />
        </label>
        <label className="audit-filter">
          <span className="field-label">Target id</span>
          <input className="input" placeholder="mem_…, demo_…, shr_…" {...field('target')} />
        </label>
        <label className="audit-filter">
          <span className="field-label">From</span>
          <input className="input" type="date" {...field('start_date')} />
        </label>
        <label className="audit-filter">
          <span className="field-label">To</span>
          <input className="input" type="date" {...field('end_date')} />
        </label>
        <div className="audit-filter-actions">
          <Button type="submit" variant="primary">
            Apply
          </Button>
          {filtered ? <Button onClick={() => apply(EMPTY)}>Clear</Button> : null}
        </div>
      </form>
      {entries.status === 'loading' ? <LoadingBlock label="Loading the audit log…" /> : null}
      {entries.status === 'error' ? <LoadError error={entries.error} onRetry={entries.reload} /> : null}
      {entries.status === 'ready' && entries.data && entries.data.rows.length === 0 ? (
        <EmptyState title={filtered ? 'No entries match' : 'Nothing recorded yet'}>
          {filtered ? 'Try other filters or a wider date range.' : 'Actions such as creating a key or inviting a member will appear here.'}
        </EmptyState>
      ) : null}
      {entries.status === 'ready' && entries.data && entries.data.rows.length > 0 ? (
        <>
          <Table caption="Audit log" columns={columns} rows={entries.data.rows} rowKey={(e) => e.id} />
          <Pager meta={entries.data.meta} requested={page} onPage={setPage} noun={['entry', 'entries']} size="sm" />
        </>
      ) : null}
    </section>
  );
}
