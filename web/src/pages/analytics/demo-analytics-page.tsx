import { useCallback, useEffect, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { analyticsApi, type DayRange, type Granularity, type View } from '../../api/analytics.api';
import { demosApi } from '../../api/demos.api';
import { EmptyState } from '../../components/empty-state';
import { ChartIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { LoadingBlock } from '../../components/spinner';
import { useResource } from '../../lib/use-resource';
import { downloadCsv } from './csv';
import { DateRangePicker } from './date-range-picker';
import { defaultGranularity, describeRange, previousRange, rangeFromSearch } from './date-range';
import { Funnel, funnelSteps } from './funnel';
import { formatCount, formatPercent, formatSeconds, Headline } from './headline';
import { TimeChart } from './time-chart';
import { companyOf, ViewersTable, viewerLabel } from './viewers';
import './analytics.css';

const RECENT = 50;
const EXPORT_MAX_PAGES = 100;

const GRANULARITIES: Record<Granularity, string> = { day: 'By day', week: 'By week', month: 'By month' };

/** One demo's engagement over a range of days: figures, a time chart, the step funnel and its viewers. */
export function DemoAnalyticsPage() {
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const range = rangeFromSearch(params);
  const granularity = (params.get('by') as Granularity | null) ?? defaultGranularity(range);
  const key = `${range.start}:${range.end}:${granularity}`;

  const setRange = (next: DayRange, by: Granularity = defaultGranularity(next)) =>
    setParams({ from: next.start, to: next.end, by }, { replace: true });

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads when the range or granularity (`key`) changes
  const load = useCallback(async () => {
    const [demo, now, before, views] = await Promise.all([
      demosApi.get(id),
      analyticsApi.demo(id, range, granularity),
      analyticsApi.demo(id, previousRange(range)),
      analyticsApi.views(id, range, { page: 1, per_page: RECENT }),
    ]);
    return { demo, now, before, views };
  }, [id, key]);
  const data = useResource(load);
  // useResource loads on mount; a new range or granularity loads again, keeping the old figures meanwhile.
  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the trigger; reload is stable
  useEffect(() => {
    if (mounted.current) void data.reload();
    mounted.current = true;
  }, [key]);

  if (data.status === 'loading') return <LoadingBlock label="Loading analytics…" />;
  if (data.status === 'error') return <LoadError error={data.error} onRetry={data.reload} />;
  const { demo, now, before, views } = data.data;
  // Step titles only when the draft is what viewers are served: otherwise numbers could name other steps.
  const titles = new Map(demo.has_unpublished_changes ? [] : demo.steps.map((s) => [s.number, s.title]));
  const steps = funnelSteps(now, titles);

  async function exportViews() {
    const all: View[] = [];
    for (let page = 1; page <= EXPORT_MAX_PAGES; page++) {
      const { rows, meta } = await analyticsApi.views(id, range, { page, per_page: 100 });
      all.push(...rows);
      if (all.length >= meta.total || rows.length === 0) break;
    }
    downloadCsv(
      `${demo.title}-views-${range.start}-${range.end}.csv`,
      ['started_at', 'viewer', 'email', 'company', 'steps_viewed', 'completed', 'duration_seconds', 'version', 'share_id'],
      all.map((v) => [v.started_at, viewerLabel(v), v.viewer.email, companyOf(v), v.steps_viewed.join(' '), v.completed, v.duration_seconds, v.version, v.share_id]),
    );
  }

  return (
    <>
      <PageHeader
        title={demo.title}
        description={
          <>
            Analytics · <Link to={`/demos/${demo.id}`}>Open in the editor</Link>
          </>
        }
      />
      <div className="analytics-toolbar">
        <DateRangePicker value={range} onChange={(r) => setRange(r)} />
        <label className="analytics-granularity">
          <span className="visually-hidden">Chart periods</span>
          <select className="input select" value={granularity} onChange={(e) => setRange(range, e.target.value as Granularity)}>
            {Object.entries(GRANULARITIES).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </label>
      </div>

      <div className="stack">
        <Headline
          comparedWith={describeRange(previousRange(range))}
          figures={[
            { label: 'Views', value: now.total_views, previous: before.total_views, format: formatCount, better: 'up' },
            { label: 'Unique viewers', value: now.unique_viewers, previous: before.unique_viewers, format: formatCount, better: 'up' },
            { label: 'Completion rate', value: now.completion_rate, previous: before.completion_rate, format: formatPercent, better: 'up' },
            { label: 'Average time', value: now.avg_time_seconds, previous: before.avg_time_seconds, format: formatSeconds },
          ]}
        />
        {now.total_views === 0 && demo.status !== 'published' ? (
          <EmptyState icon={<ChartIcon size={24} />} title="Not published yet">
            Views appear here once the demo is published and people open its share links.
          </EmptyState>
        ) : null}
        <TimeChart points={now.series ?? []} granularity={granularity} title="Views and completions" />

        <section className="card" aria-labelledby="funnel-title">
          <div className="card-header row row-between">
            <h2 id="funnel-title">Step funnel</h2>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() =>
                downloadCsv(
                  `${demo.title}-funnel-${range.start}-${range.end}.csv`,
                  ['step', 'title', 'views', 'share_of_views', 'avg_seconds', 'drop_off_rate'],
                  steps.map((s) => [s.number, s.title, s.views, now.total_views ? s.views / now.total_views : 0, s.avgTime, s.dropOff]),
                )
              }
            >
              Download CSV
            </button>
          </div>
          <div className="card-body">
            <Funnel steps={steps} totalViews={now.total_views} />
          </div>
        </section>

        <section className="card" aria-labelledby="viewers-title">
          <div className="card-header row row-between">
            <div>
              <h2 id="viewers-title">Recent viewers</h2>
              <p className="muted">
                {views.meta.total === 0
                  ? 'Nobody viewed this demo in this period.'
                  : `The latest ${Math.min(RECENT, views.meta.total)} of ${formatCount(views.meta.total)} views. Open one to follow its journey.`}
              </p>
            </div>
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void exportViews()} disabled={views.meta.total === 0}>
              Download CSV
            </button>
          </div>
          {views.rows.length > 0 ? <ViewersTable views={views.rows} stepCount={demo.steps.length} titles={titles} /> : null}
        </section>
      </div>
    </>
  );
}
