import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Granularity } from '../../api/analytics.api';
import { Table } from '../../components/table';
import { periodLabel } from './date-range';
import { formatCount } from './headline';

export interface Point {
  period_start: string;
  views: number;
  completions: number;
  unique_viewers?: number;
}

const VIEWS = '#4f46e5';
const COMPLETIONS = '#12b76a';
const HEIGHT = 240;

const seconds = (day: string) => Date.parse(`${day}T00:00:00.000Z`) / 1000;

/**
 * Views and completions over time (uPlot), readable at a glance: two lines on one count axis. The chart
 * answers the keyboard (arrow keys move between periods, read aloud), and the same numbers are one click
 * away as a table.
 */
export function TimeChart({ points, granularity, title }: { points: Point[]; granularity: Granularity; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const [asTable, setAsTable] = useState(false);
  const [focus, setFocus] = useState<number | null>(null);
  const empty = points.every((p) => p.views === 0);

  useEffect(() => {
    const el = box.current;
    if (!el || asTable) return;
    const data: uPlot.AlignedData = [
      points.map((p) => seconds(p.period_start)),
      points.map((p) => p.views),
      points.map((p) => p.completions),
    ];
    const options: uPlot.Options = {
      width: el.clientWidth,
      height: HEIGHT,
      // Periods are UTC days: show them as such, whatever the reader's time zone.
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { size: 8 } },
      // One period alone would otherwise be spread over years of empty axis.
      scales: { x: { time: true, range: (_u, min, max) => (min === max ? [min - 43_200, max + 43_200] : [min, max]) }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
      axes: [
        { stroke: '#475467', grid: { show: false }, ticks: { show: false } },
        { stroke: '#475467', grid: { stroke: '#eaecf0' }, ticks: { show: false }, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? formatCount(t) : '')) },
      ],
      series: [
        {},
        { label: 'Views', stroke: VIEWS, width: 2, fill: 'rgba(79,70,229,0.08)', points: { show: points.length <= 31 } },
        { label: 'Completions', stroke: COMPLETIONS, width: 2, points: { show: points.length <= 31 } },
      ],
      hooks: {
        setCursor: [(u) => setFocus(u.cursor.idx ?? null)],
      },
    };
    const chart = new uPlot(options, data, el);
    plot.current = chart;
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [points, asTable]);

  function moveFocus(step: number) {
    const chart = plot.current;
    if (!chart || points.length === 0) return;
    const next = Math.min(points.length - 1, Math.max(0, (focus ?? (step > 0 ? -1 : points.length)) + step));
    const left = chart.valToPos(chart.data[0][next]!, 'x');
    const top = chart.valToPos(points[next]!.views, 'y');
    chart.setCursor({ left, top });
    setFocus(next);
  }

  const current = focus !== null ? points[focus] : undefined;
  return (
    <section className="card chart-card" aria-labelledby="time-chart-title">
      <div className="card-header row row-between">
        <h2 id="time-chart-title">{title}</h2>
        <div className="row">
          {!asTable ? (
            <span className="chart-legend" aria-hidden="true">
              <span className="legend-key" style={{ background: VIEWS }} /> Views
              <span className="legend-key" style={{ background: COMPLETIONS }} /> Completions
            </span>
          ) : null}
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setAsTable(!asTable)} aria-pressed={asTable}>
            {asTable ? 'Show chart' : 'Show table'}
          </button>
        </div>
      </div>
      {asTable ? (
        <Table
          caption={title}
          rows={points}
          rowKey={(p) => p.period_start}
          columns={[
            { key: 'period', header: 'Period', render: (p) => periodLabel(p.period_start, granularity), kind: 'nowrap' },
            { key: 'views', header: 'Views', render: (p) => formatCount(p.views) },
            ...(points[0]?.unique_viewers !== undefined
              ? [{ key: 'unique', header: 'Unique viewers', render: (p: Point) => formatCount(p.unique_viewers ?? 0) }]
              : []),
            { key: 'completions', header: 'Completions', render: (p) => formatCount(p.completions) },
          ]}
        />
      ) : (
        <div className="chart-body">
          <div
            ref={box}
            className="chart"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the chart takes arrow keys to read its points aloud
            tabIndex={0}
            role="img"
            aria-label={`${title}: ${points.length} periods. Use the left and right arrow keys to read each period, or Show table.`}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
                e.preventDefault();
                moveFocus(e.key === 'ArrowRight' ? 1 : -1);
              }
            }}
          />
          {empty ? <p className="chart-empty">No views in this period yet.</p> : null}
          <p className="chart-readout" aria-live="polite">
            {current
              ? `${periodLabel(current.period_start, granularity)}: ${formatCount(current.views)} ${current.views === 1 ? 'view' : 'views'}, ${formatCount(current.completions)} completed`
              : '\u00a0'}
          </p>
        </div>
      )}
    </section>
  );
}
