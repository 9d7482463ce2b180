import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { assetPath, demosApi } from '../../api/demos.api';
import type { Demo, DemoStatus } from '../../api/types';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { PlayIcon, PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { Pager } from '../../components/pager';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { formatRelative } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';
import { ShareButton } from '../shares/share-button';
import { DemoListStatus, STATUS_LABELS } from './demo-status';
import { NewDemoDialog } from './new-demo-dialog';

const PER_PAGE = 20;
const STATUSES: DemoStatus[] = ['draft', 'published', 'archived', 'generating'];

export function DemosPage() {
  const navigate = useNavigate();
  const allowed = useCan();
  const canCreate = allowed('demos.write');
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [status, setStatus] = useState<DemoStatus | ''>('');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);

  // Searching on every key press would race; wait for a pause in typing. Only a changed search goes
  // back to page 1: on mount this used to fire too, undoing a Next clicked in the first 250 ms.
  useEffect(() => {
    const next = search.trim();
    if (next === query) return;
    const timer = setTimeout(() => {
      setQuery(next);
      setPage(1);
    }, 250);
    return () => clearTimeout(timer);
  }, [search, query]);

  const demos = useResource(() => demosApi.list({ page, per_page: PER_PAGE, status: status || undefined, search: query || undefined }));
  const { reload } = demos;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filters are what the list depends on
  useEffect(() => {
    void reload();
  }, [page, status, query, reload]);

  const filtered = Boolean(query || status);

  const columns: Column<Demo>[] = [
    {
      key: 'demo',
      header: 'Demo',
      kind: 'grow',
      render: (d) => (
        <Link to={`/demos/${d.id}`} className="demo-cell">
          {d.thumbnail_url ? (
            <img className="demo-thumb" src={assetPath(d.thumbnail_url)} alt="" loading="lazy" />
          ) : (
            <span className="demo-thumb demo-thumb-empty" aria-hidden="true">
              <PlayIcon size={16} />
            </span>
          )}
          <span className="cell-stack">
            <span className="cell-strong">{d.title}</span>
            {d.source_url ? <span className="cell-sub">{d.source_url}</span> : null}
          </span>
        </Link>
      ),
    },
    { key: 'status', header: 'Status', render: (d) => <DemoListStatus demo={d} onChanged={reload} /> },
    { key: 'steps', header: 'Steps', kind: 'nowrap', render: (d) => d.step_count },
    { key: 'updated', header: 'Updated', kind: 'nowrap', render: (d) => formatRelative(d.updated_at) },
    {
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      kind: 'actions' as const,
      render: (d: Demo) => (
        <span className="row row-end">
          {d.published_version !== null ? (
            <Link className="btn btn-ghost btn-sm" to={`/demos/${d.id}/analytics`} aria-label={`Analytics of ${d.title}`}>
              Analytics
            </Link>
          ) : null}
          {allowed('shares.write') ? <ShareButton demo={d} size="sm" /> : null}
        </span>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Demos"
        description="Interactive walkthroughs of your product, ready to share with a link."
        actions={
          canCreate ? (
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
              New demo
            </Button>
          ) : null
        }
      />
      <div className="toolbar">
        <input
          className="input toolbar-search"
          type="search"
          placeholder="Search by title or address"
          aria-label="Search demos"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        <select
          className="input select select-compact"
          aria-label="Filter by status"
          value={status}
          onChange={(e) => {
            setStatus(e.target.value as DemoStatus | '');
            setPage(1);
          }}
        >
          <option value="">All statuses</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      {demos.status === 'loading' ? <LoadingBlock label="Loading demos…" /> : null}
      {demos.status === 'error' ? <LoadError error={demos.error} onRetry={demos.reload} /> : null}
      {demos.status === 'ready' && demos.data.rows.length === 0 ? (
        filtered ? (
          <EmptyState title="No demos match">Try another search or status.</EmptyState>
        ) : (
          <EmptyState
            icon={<PlayIcon size={24} />}
            title="No demos yet"
            action={
              canCreate ? (
                <div className="empty-state-paths">
                  <Button variant="primary" icon={<PlusIcon />} onClick={() => setCreating(true)}>
                    Generate from a web address
                  </Button>
                  <Link className="btn btn-secondary" to="/recorder">
                    Record with the browser extension
                  </Link>
                </div>
              ) : null
            }
          >
            Capture a public page of your product, or record it as you click through it signed in, then share the clickable steps
            with prospects. Your demos will be listed here.
          </EmptyState>
        )
      ) : null}
      {demos.status === 'ready' && demos.data.rows.length > 0 ? (
        <>
          <Table caption="Demos" columns={columns} rows={demos.data.rows} rowKey={(d) => d.id} />
          {demos.data.meta.total > demos.data.meta.per_page ? (
            <Pager meta={demos.data.meta} requested={page} onPage={setPage} noun={['demo', 'demos']} size="sm" />
          ) : null}
        </>
      ) : null}
      {creating ? <NewDemoDialog onClose={() => setCreating(false)} onCreated={(demo) => navigate(`/demos/${demo.id}`)} /> : null}
    </>
  );
}
