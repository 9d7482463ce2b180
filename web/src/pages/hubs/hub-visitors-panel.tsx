import { useEffect, useRef, useState } from 'react';
import type { DayRange } from '../../api/analytics.api';
import { type HubVisitor, hubsApi } from '../../api/hubs.api';
import { EmptyState } from '../../components/empty-state';
import { MailIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { Pager } from '../../components/pager';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { formatDateTime } from '../../lib/format';
import { useHashAnchor } from '../../lib/use-hash-anchor';
import { useResource } from '../../lib/use-resource';
import { DateRangePicker } from '../analytics/date-range-picker';

const PER_PAGE = 20;
const FIELD_LABELS = { company: 'Company', job_title: 'Job title', phone: 'Phone' } as const;

const columns: Column<HubVisitor>[] = [
  {
    key: 'who',
    header: 'Visitor',
    kind: 'primary',
    render: (v) => (
      <span className="cell-stack">
        <span>{v.name ?? v.email}</span>
        <a className="cell-sub" href={`mailto:${v.email}`}>
          {v.email}
        </a>
      </span>
    ),
  },
  {
    key: 'answers',
    header: 'Answers',
    render: (v) => {
      const answers = (Object.keys(FIELD_LABELS) as (keyof typeof FIELD_LABELS)[]).filter((f) => v.values[f]);
      if (answers.length === 0) return <span className="cell-sub">—</span>;
      return (
        <dl className="hub-visitor-values">
          {answers.map((f) => (
            <div key={f} style={{ display: 'contents' }}>
              <dt>{FIELD_LABELS[f]}</dt>
              <dd>{v.values[f]}</dd>
            </div>
          ))}
        </dl>
      );
    },
  },
  {
    key: 'demos',
    header: 'Demos opened',
    kind: 'grow',
    render: (v) =>
      v.demos.length === 0 ? (
        <span className="cell-sub">{v.demos_opened === 0 ? 'None yet' : `${v.demos_opened} (removed from the hub)`}</span>
      ) : (
        <ul className="hub-visitor-demos">
          {v.demos.map((d) => (
            <li key={d.id}>
              {d.title || 'Untitled demo'}
              {d.opens > 1 ? <span className="cell-sub">{` × ${d.opens}`}</span> : null}
            </li>
          ))}
        </ul>
      ),
  },
  { key: 'when', header: 'Identified', kind: 'nowrap', render: (v) => (v.identified_at ? <time dateTime={v.identified_at}>{formatDateTime(v.identified_at)}</time> : '') },
];

/**
 * Who passed the hub's identification or lead form, newest first, a page at a time, and as CSV: both within
 * the chosen days (all time until one is chosen). The notice e-mails and Slack alerts link here (#visitors).
 */
export function HubVisitorsPanel({ hubId }: { hubId: string }) {
  const [page, setPage] = useState(1);
  const [range, setRange] = useState<DayRange | null>(null);
  const visitors = useResource(() => hubsApi.visitors(hubId, range, page, PER_PAGE));
  const { reload } = visitors;
  const section = useRef<HTMLElement>(null);
  useHashAnchor(section, '#visitors', visitors.status !== 'loading');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the range and page are what the list depends on
  useEffect(() => {
    void reload();
  }, [range, page, reload]);
  return (
    <section className="card" aria-labelledby="hub-visitors" id="visitors" ref={section}>
      <div className="card-header row row-wrap row-between">
        <div>
          <h2 id="hub-visitors">Visitors</h2>
          <p className="muted">Who passed the hub's identification or lead form, newest first. Your team's own visits are left out.</p>
        </div>
        <a className="btn btn-secondary btn-sm" href={hubsApi.visitorsCsvUrl(hubId, range)} download>
          Export CSV
        </a>
      </div>
      <div className="card-body stack">
        <div className="hub-range">
          <DateRangePicker
            allTime
            value={range}
            onChange={(next) => {
              setRange(next);
              setPage(1);
            }}
          />
        </div>
        {visitors.status === 'loading' ? <LoadingBlock label="Loading visitors…" /> : null}
        {visitors.status === 'error' ? <LoadError error={visitors.error} onRetry={visitors.reload} /> : null}
        {visitors.status === 'ready' && visitors.data.rows.length === 0 ? (
          range ? (
            <EmptyState icon={<MailIcon size={24} />} title="No visitors in these days">
              Nobody passed the hub's form between these dates. Choose a wider range, or All time.
            </EmptyState>
          ) : (
            <EmptyState icon={<MailIcon size={24} />} title="No visitors identified yet">
              Turn on “Ask who the viewer is” or lead-form fields under Access: everyone who passes them is listed here.
            </EmptyState>
          )
        ) : null}
        {visitors.status === 'ready' && visitors.data.rows.length > 0 ? (
          <>
            <Table caption="Visitors" columns={columns} rows={visitors.data.rows} rowKey={(v) => `${v.email}:${v.identified_at}`} />
            <Pager meta={visitors.data.meta} requested={page} onPage={setPage} noun={['visitor', 'visitors']} size="sm" label="Visitor pages" />
          </>
        ) : null}
      </div>
    </section>
  );
}
