export interface Figure {
  label: string;
  value: number;
  /** The same figure over the previous period; undefined when not compared. */
  previous?: number;
  format(value: number): string;
  /** Whether a rise is good news (views) or not; neutral figures (time) show no colour. */
  better?: 'up' | 'down';
}

export const formatCount = (n: number) => new Intl.NumberFormat('en').format(n);
export const formatPercent = (rate: number) => `${Math.round(rate * 1000) / 10}%`;
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}

function change(figure: Figure): { text: string; tone: 'up' | 'down' | 'flat' } | null {
  if (figure.previous === undefined) return null;
  const { value, previous } = figure;
  if (previous === 0) return value === 0 ? { text: 'no change', tone: 'flat' } : { text: 'new', tone: 'up' };
  const pct = Math.round(((value - previous) / previous) * 100);
  if (pct === 0) return { text: 'no change', tone: 'flat' };
  return { text: `${pct > 0 ? '+' : '−'}${Math.abs(pct)}%`, tone: pct > 0 ? 'up' : 'down' };
}

/** The figures of a period, each with its change against the period before. */
export function Headline({ figures, comparedWith }: { figures: Figure[]; comparedWith?: string }) {
  return (
    <dl className="figures">
      {figures.map((f) => {
        const delta = change(f);
        const good = delta && f.better && delta.tone !== 'flat' ? (delta.tone === f.better ? 'good' : 'bad') : 'neutral';
        return (
          <div className="figure" key={f.label}>
            <dt>{f.label}</dt>
            <dd className="figure-value">{f.format(f.value)}</dd>
            {delta ? (
              <dd className={`figure-change ${good}`} title={comparedWith ? `Against ${comparedWith}: ${f.format(f.previous!)}` : undefined}>
                {delta.text}
                <span className="visually-hidden"> against the previous period ({f.format(f.previous!)})</span>
              </dd>
            ) : null}
          </div>
        );
      })}
    </dl>
  );
}

interface PeriodTotals {
  total_views: number;
  unique_viewers: number;
  completion_rate: number;
  avg_time_seconds: number;
}

/** The four headline figures every analytics page opens with, against the period before. */
export const periodFigures = (now: PeriodTotals, before: PeriodTotals): Figure[] => [
  { label: 'Views', value: now.total_views, previous: before.total_views, format: formatCount, better: 'up' },
  { label: 'Unique viewers', value: now.unique_viewers, previous: before.unique_viewers, format: formatCount, better: 'up' },
  { label: 'Completion rate', value: now.completion_rate, previous: before.completion_rate, format: formatPercent, better: 'up' },
  { label: 'Average time', value: now.avg_time_seconds, previous: before.avg_time_seconds, format: formatSeconds },
];
