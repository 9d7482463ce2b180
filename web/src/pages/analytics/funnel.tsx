import type { DemoAnalytics } from '../../api/analytics.api';
import { formatCount, formatPercent, formatSeconds } from './headline';

export interface FunnelStep {
  number: number;
  title: string;
  views: number;
  avgTime: number;
  dropOff: number;
}

/**
 * The funnel's rows. Steps are named as the counted views saw them (the server's titles, from the versions
 * they played); `unplayed` (the draft's titles, when it is what viewers are served) only names the steps of
 * a range nobody viewed.
 */
export function funnelSteps(analytics: DemoAnalytics, unplayed: Map<number, string>): FunnelStep[] {
  const played = analytics.versions_played.length > 0;
  return analytics.steps.map((s) => ({
    number: s.number,
    title: (played ? s.title : unplayed.get(s.number)) ?? '',
    views: s.views,
    avgTime: s.avg_time,
    dropOff: s.drop_off_rate,
  }));
}

/**
 * How far viewers got: one bar per step, as wide as the share of views that reached it, with the drop-off
 * to the next step. Drawn as a list of labelled bars (not a canvas), so the numbers are the content.
 */
export function Funnel({ steps, totalViews }: { steps: FunnelStep[]; totalViews: number }) {
  if (steps.length === 0) return <p className="muted">This demo has no steps yet.</p>;
  const base = Math.max(totalViews, steps[0]?.views ?? 0, 1);
  return (
    <ol className="funnel" aria-label="Viewers reaching each step">
      {steps.map((s) => {
        const share = s.views / base;
        return (
          <li key={s.number} className="funnel-step">
            <div className="funnel-label">
              <span className="funnel-number">Step {s.number}</span>
              {s.title ? <span className="funnel-title">{s.title}</span> : null}
            </div>
            <div className="funnel-bar-track" aria-hidden="true">
              <div className="funnel-bar" style={{ width: `${Math.max(share * 100, s.views > 0 ? 1.5 : 0)}%` }} />
            </div>
            <div className="funnel-figures">
              <span>
                <strong>{formatCount(s.views)}</strong> reached ({formatPercent(share)})
              </span>
              <span className="muted">{s.views > 0 ? `${formatSeconds(s.avgTime)} on it` : '—'}</span>
              {s.dropOff > 0 ? <span className="funnel-drop">{formatPercent(s.dropOff)} left here</span> : null}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
