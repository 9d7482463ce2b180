import { useCallback, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import type { DayRange, Granularity } from '../../api/analytics.api';
import { useResource } from '../../lib/use-resource';
import { DateRangePicker } from './date-range-picker';
import { defaultGranularity, rangeFromSearch } from './date-range';

const GRANULARITIES: Record<Granularity, string> = { day: 'By day', week: 'By week', month: 'By month' };

/** What an analytics page shows, kept in the address (`from`, `to`, `by`, `team=1`) so a view can be shared. */
export interface AnalyticsView {
  range: DayRange;
  granularity: Granularity;
  includeInternal: boolean;
  /** Changes whenever any of the above does: the trigger to load again. */
  key: string;
  set(next: { range?: DayRange; granularity?: Granularity; includeInternal?: boolean }): void;
}

export function useAnalyticsView(): AnalyticsView {
  const [params, setParams] = useSearchParams();
  const range = rangeFromSearch(params);
  const granularity = (params.get('by') as Granularity | null) ?? defaultGranularity(range);
  const includeInternal = params.get('team') === '1';
  return {
    range,
    granularity,
    includeInternal,
    key: `${range.start}:${range.end}:${granularity}:${includeInternal}`,
    set(next) {
      const r = next.range ?? range;
      // A new range picks the granularity that suits its length unless one is asked for.
      const by = next.granularity ?? (next.range ? defaultGranularity(r) : granularity);
      const team = next.includeInternal ?? includeInternal;
      setParams({ from: r.start, to: r.end, by, ...(team ? { team: '1' } : {}) }, { replace: true });
    },
  };
}

/**
 * Loads a page's data and loads it again whenever the view changes, keeping the old figures on screen
 * meanwhile (useResource loads once on mount by itself).
 */
export function useAnalyticsData<T>(view: AnalyticsView, load: () => Promise<T>, extraKey = '') {
  const key = `${view.key}:${extraKey}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for everything `load` reads
  const stable = useCallback(load, [key]);
  const data = useResource(stable);
  const mounted = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is the trigger; reload is stable
  useEffect(() => {
    if (mounted.current) void data.reload();
    mounted.current = true;
  }, [key]);
  return data;
}

/** The range picker, the chart's periods and whether the team's own views count. */
export function AnalyticsToolbar({ view }: { view: AnalyticsView }) {
  return (
    <div className="analytics-toolbar">
      <DateRangePicker value={view.range} onChange={(range) => view.set({ range })} />
      <label className="analytics-granularity">
        <span className="visually-hidden">Chart periods</span>
        <select className="input select" value={view.granularity} onChange={(e) => view.set({ granularity: e.target.value as Granularity })}>
          {Object.entries(GRANULARITIES).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label className="checkbox analytics-team" title="Views by members of this workspace, signed in or identified with their address">
        <input type="checkbox" checked={view.includeInternal} onChange={(e) => view.set({ includeInternal: e.target.checked })} /> Include team views
      </label>
    </div>
  );
}
