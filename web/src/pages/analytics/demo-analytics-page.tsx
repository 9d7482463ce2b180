import { Link, useParams } from 'react-router';
import { analyticsApi, type View } from '../../api/analytics.api';
import { demosApi } from '../../api/demos.api';
import { EmptyState } from '../../components/empty-state';
import { ChartIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { LoadingBlock } from '../../components/spinner';
import { AnalyticsToolbar, useAnalyticsData, useAnalyticsView } from './analytics-view';
import { CompaniesTable, companiesCsv, LinksTable, variablesText } from './breakdowns';
import { downloadCsv } from './csv';
import { describeRange, previousRange } from './date-range';
import { Funnel, funnelSteps } from './funnel';
import { ChaptersCard, ClicksCard, FormsCard, hasPathFigures } from './path-sections';
import { formatCount, Headline, periodFigures } from './headline';
import { TimeChart } from './time-chart';
import { companyOf, ViewersTable, viewerLabel } from './viewers';
import './analytics.css';

const RECENT = 50;
const EXPORT_MAX_PAGES = 100;

/** One demo's engagement over a range of days: figures, a time chart, the funnel, its links, companies and viewers. */
export function DemoAnalyticsPage() {
  const { id = '' } = useParams();
  const view = useAnalyticsView();
  const { range, granularity, includeInternal } = view;
  const data = useAnalyticsData(
    view,
    async () => {
      const [demo, now, before, views, links, companies, paths] = await Promise.all([
        demosApi.get(id),
        analyticsApi.demo(id, range, granularity, includeInternal),
        analyticsApi.demo(id, previousRange(range), undefined, includeInternal),
        analyticsApi.views(id, range, { page: 1, per_page: RECENT }, includeInternal),
        analyticsApi.links(id, range, includeInternal),
        analyticsApi.companies(id, range, includeInternal),
        analyticsApi.paths(id, range, includeInternal),
      ]);
      return { demo, now, before, views, links, companies, paths };
    },
    id,
  );

  if (data.status === 'loading') return <LoadingBlock label="Loading analytics…" />;
  if (data.status === 'error') return <LoadError error={data.error} onRetry={data.reload} />;
  const { demo, now, before, views, links, companies, paths } = data.data;
  // Step titles only when the draft is what viewers are served: otherwise numbers could name other steps.
  const titles = new Map(demo.has_unpublished_changes ? [] : demo.steps.map((s) => [s.number, s.title]));
  const steps = funnelSteps(now, titles);
  const file = (what: string) => `${demo.title}-${what}-${range.start}-${range.end}.csv`;

  async function exportViews() {
    const all: View[] = [];
    for (let page = 1; page <= EXPORT_MAX_PAGES; page++) {
      const { rows, meta } = await analyticsApi.views(id, range, { page, per_page: 100 }, includeInternal);
      all.push(...rows);
      if (all.length >= meta.total || rows.length === 0) break;
    }
    downloadCsv(
      file('views'),
      ['started_at', 'viewer', 'email', 'company', 'steps_viewed', 'completed', 'duration_seconds', 'version', 'share_id', 'link_name', 'link_variables', 'internal'],
      all.map((v) => [
        v.started_at,
        viewerLabel(v),
        v.viewer.email,
        companyOf(v),
        v.steps_viewed.join(' '),
        v.completed,
        v.duration_seconds,
        v.version,
        v.share_id,
        v.link?.name ?? '',
        v.link ? variablesText(v.link.variables) : '',
        v.internal,
      ]),
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
      <AnalyticsToolbar view={view} />

      <div className="stack">
        <Headline comparedWith={describeRange(previousRange(range))} figures={periodFigures(now, before)} />
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
                  file('funnel'),
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

        {hasPathFigures(paths) ? (
          <>
            <ChaptersCard paths={paths} file={file} />
            <ClicksCard paths={paths} file={file} />
            <FormsCard paths={paths} file={file} />
          </>
        ) : null}

          <section className="card" aria-labelledby="links-title">
            <div className="card-header">
              <h2 id="links-title">Share links</h2>
              <p className="muted">{links.length === 0 ? 'No link was viewed in this period.' : 'With one link per prospect, this is who engaged.'}</p>
            </div>
            {links.length > 0 ? <LinksTable links={links} /> : null}
          </section>

          <section className="card" aria-labelledby="companies-title">
            <div className="card-header row row-between">
              <div>
                <h2 id="companies-title">Companies</h2>
                <p className="muted">
                  {companies.length === 0 ? 'No identified viewer in this period.' : 'Identified viewers by the domain of their e-mail address.'}
                </p>
              </div>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={companies.length === 0}
                onClick={() => {
                  const { header, rows } = companiesCsv(companies);
                  downloadCsv(file('companies'), header, rows);
                }}
              >
                Download CSV
              </button>
            </div>
            {companies.length > 0 ? <CompaniesTable companies={companies} /> : null}
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
          {views.rows.length > 0 ? <ViewersTable demoId={demo.id} views={views.rows} stepCount={demo.steps.length} onErased={() => void data.reload()} /> : null}
        </section>
      </div>
    </>
  );
}
