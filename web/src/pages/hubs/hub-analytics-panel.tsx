import { useEffect, useRef, useState } from 'react';
import type { DayRange } from '../../api/analytics.api';
import { hubsApi } from '../../api/hubs.api';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { useResource } from '../../lib/use-resource';
import { DateRangePicker } from '../analytics/date-range-picker';
import { lastDays } from '../analytics/date-range';

type Entry = { entry_id: string; title: string; opens: number; views: number; completions: number };

const count = (n: number) => new Intl.NumberFormat('en').format(n);

/**
 * A hub's visits, demos opened, views and completions, per demo, within the chosen UTC days (the last 30
 * until another range is chosen, with the analytics pages' control). Who identified is the visitors panel's.
 */
export function HubAnalyticsPanel({ hubId }: { hubId: string }) {
  const [range, setRange] = useState<DayRange>(() => lastDays(30));
  const figures = useResource(() => hubsApi.analytics(hubId, range));
  const { reload } = figures;
  // useResource loads once on mount by itself: load again only when the range changes after that.
  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the range is what the figures depend on
  useEffect(() => {
    if (mounted.current) void reload();
    mounted.current = true;
  }, [range, reload]);
  const entryColumns: Column<Entry>[] = [
    { key: 'title', header: 'Demo', kind: 'primary', render: (e) => e.title },
    { key: 'opens', header: 'Opened', kind: 'nowrap', render: (e) => count(e.opens) },
    { key: 'views', header: 'Views', kind: 'nowrap', render: (e) => count(e.views) },
    { key: 'completions', header: 'Completed', kind: 'nowrap', render: (e) => count(e.completions) },
  ];
  return (
    <section className="card" aria-labelledby="hub-analytics">
      <div className="card-header">
        <h2 id="hub-analytics">Analytics</h2>
        <p className="muted">Views through the hub count for each demo too; your team's own visits are left out.</p>
      </div>
      <div className="card-body stack">
        <div className="hub-range">
          <DateRangePicker value={range} onChange={setRange} />
        </div>
        {figures.status === 'loading' ? <LoadingBlock label="Loading analytics…" /> : null}
        {figures.status === 'error' ? <LoadError error={figures.error} onRetry={figures.reload} /> : null}
        {figures.status === 'ready' ? (
          <>
            <dl className="hub-figures">
              {[
                ['Visits', count(figures.data.visits)],
                ['Identified visitors', count(figures.data.identified_visitors)],
                ['Demos opened', count(figures.data.demos_opened)],
                ['Completions', count(figures.data.completions)],
                ['Completion rate', `${Math.round(figures.data.completion_rate * 100)}%`],
              ].map(([label, value]) => (
                <div key={label} className="hub-figure">
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            {figures.data.visits === 0 && figures.data.views === 0 ? (
              <p className="muted">Nobody visited the hub in these days.</p>
            ) : null}
            {figures.data.entries.length > 0 ? <Table caption="Per demo" columns={entryColumns} rows={figures.data.entries} rowKey={(e) => e.entry_id} /> : null}
          </>
        ) : null}
      </div>
    </section>
  );
}
