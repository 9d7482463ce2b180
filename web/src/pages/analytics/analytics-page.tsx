import { Link } from 'react-router';
import { analyticsApi, type DayRange, type WorkspaceAnalytics } from '../../api/analytics.api';
import { EmptyState } from '../../components/empty-state';
import { ChartIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { AnalyticsToolbar, useAnalyticsData, useAnalyticsView } from './analytics-view';
import { describeRange, previousRange } from './date-range';
import { formatCount, formatPercent, Headline, periodFigures } from './headline';
import { TimeChart } from './time-chart';
import './analytics.css';

type TopDemo = WorkspaceAnalytics['top_demos'][number];

const topColumns = (range: DayRange, team: boolean): Column<TopDemo>[] => [
  {
    key: 'demo',
    header: 'Demo',
    kind: 'primary',
    render: (d) => <Link to={`/demos/${d.demo_id}/analytics?from=${range.start}&to=${range.end}${team ? '&team=1' : ''}`}>{d.title || 'Untitled demo'}</Link>,
  },
  { key: 'views', header: 'Views', kind: 'nowrap', render: (d) => formatCount(d.views) },
  { key: 'viewers', header: 'Unique viewers', kind: 'nowrap', render: (d) => formatCount(d.unique_viewers) },
  { key: 'completion', header: 'Completion', kind: 'nowrap', render: (d) => formatPercent(d.completion_rate) },
];

/** The workspace at a glance: every demo's views over a range, against the range before, and the busiest demos. */
export function AnalyticsPage() {
  const view = useAnalyticsView();
  const { range, granularity, includeInternal } = view;
  const data = useAnalyticsData(view, async () => {
    const [now, before] = await Promise.all([
      analyticsApi.workspace(range, granularity, includeInternal),
      analyticsApi.workspace(previousRange(range), undefined, includeInternal),
    ]);
    return { now, before };
  });

  if (data.status === 'loading') return <LoadingBlock label="Loading analytics…" />;
  if (data.status === 'error') return <LoadError error={data.error} onRetry={data.reload} />;
  const { now, before } = data.data;

  return (
    <>
      <PageHeader title="Analytics" description="How viewers engage with your demos: views, completion and which demos draw them." />
      <AnalyticsToolbar view={view} />
      <div className="stack">
        <Headline comparedWith={describeRange(previousRange(range))} figures={periodFigures(now, before)} />
        {now.total_views === 0 ? (
          <EmptyState icon={<ChartIcon size={24} />} title="No views yet">
            Once viewers play your published demos through their share links, their views, completion rate and the busiest demos appear here.
          </EmptyState>
        ) : null}
        <TimeChart points={now.series ?? []} granularity={granularity} title="Views and completions" />
        <section className="card" aria-labelledby="top-demos-title">
          <div className="card-header">
            <h2 id="top-demos-title">Top demos</h2>
            <p className="muted">{`${formatCount(now.demos_viewed)} ${now.demos_viewed === 1 ? 'demo' : 'demos'} viewed in this period.`}</p>
          </div>
          {now.top_demos.length > 0 ? (
            <Table caption="The demos with the most views in this period" columns={topColumns(range, includeInternal)} rows={now.top_demos} rowKey={(d) => d.demo_id} />
          ) : (
            <div className="card-body muted">No demo was viewed in this period.</div>
          )}
        </section>
      </div>
    </>
  );
}
