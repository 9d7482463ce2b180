import { useState } from 'react';
import type { DayRange } from '../../api/analytics.api';
import { describeRange, isValidRange, lastDays, lengthInDays, PRESETS } from './date-range';
import './date-range-picker.css';

/** A range is always chosen (analytics); with `allTime`, `null` is a choice too: no bound (a list of visitors). */
type Props =
  | { value: DayRange; onChange(range: DayRange): void; allTime?: false }
  | { value: DayRange | null; onChange(range: DayRange | null): void; allTime: true };

/**
 * Presets (7, 30, 90 days; with `allTime`, "All time" first) and a custom range of UTC days. The choice
 * applies at once for a preset, and on Apply for custom dates, so half-typed dates never load figures.
 */
export function DateRangePicker({ value, onChange, allTime }: Props) {
  const choose = onChange as (range: DayRange | null) => void;
  const preset = value
    ? PRESETS.find((p) => {
        const r = lastDays(p.days);
        return r.start === value.start && r.end === value.end;
      })
    : undefined;
  const [custom, setCustom] = useState<DayRange | null>(preset || !value ? null : value);
  const invalid = custom !== null && !isValidRange(custom);
  const everything = allTime && value === null && custom === null;

  return (
    <fieldset className="range-picker">
      <legend className="visually-hidden">Date range</legend>
      <div className="segmented">
        {allTime ? (
          <button
            type="button"
            className={`segment${everything ? ' active' : ''}`}
            aria-pressed={everything}
            onClick={() => {
              setCustom(null);
              choose(null);
            }}
          >
            All time
          </button>
        ) : null}
        {PRESETS.map((p) => (
          <button
            key={p.days}
            type="button"
            className={`segment${preset?.days === p.days && custom === null ? ' active' : ''}`}
            aria-pressed={preset?.days === p.days && custom === null}
            onClick={() => {
              setCustom(null);
              choose(lastDays(p.days));
            }}
          >
            {p.days} days
          </button>
        ))}
        <button
          type="button"
          className={`segment${custom !== null ? ' active' : ''}`}
          aria-pressed={custom !== null}
          onClick={() => setCustom(custom ?? value ?? lastDays(30))}
        >
          Custom
        </button>
      </div>
      {custom !== null ? (
        <form
          className="range-custom"
          onSubmit={(e) => {
            e.preventDefault();
            if (!invalid) choose(custom);
          }}
        >
          <label>
            <span className="field-label">From</span>
            <input
              className="input"
              type="date"
              value={custom.start}
              max={custom.end || undefined}
              onChange={(e) => setCustom({ ...custom, start: e.target.value })}
              aria-invalid={invalid || undefined}
            />
          </label>
          <label>
            <span className="field-label">To</span>
            <input
              className="input"
              type="date"
              value={custom.end}
              min={custom.start || undefined}
              onChange={(e) => setCustom({ ...custom, end: e.target.value })}
              aria-invalid={invalid || undefined}
            />
          </label>
          <button type="submit" className="btn btn-secondary" disabled={invalid}>
            Apply
          </button>
          {invalid ? <p className="field-error">The start date must be on or before the end date.</p> : null}
        </form>
      ) : null}
      {value ? (
        <p className="muted range-summary">
          {describeRange(value)} · {lengthInDays(value)} {lengthInDays(value) === 1 ? 'day' : 'days'}, UTC
        </p>
      ) : null}
    </fieldset>
  );
}
