import { useState } from 'react';
import { emailDomain, isFreeMailDomain } from '../../../../src/core/free-mail';
import type { View } from '../../api/analytics.api';
import { Dialog } from '../../components/dialog';
import { type Column, Table } from '../../components/table';
import { formatDateTime } from '../../lib/format';
import { formatSeconds } from './headline';

/** Who a viewer is, as far as we know: their name and address, or "Anonymous viewer". */
export const viewerLabel = (v: View) => v.viewer.name || v.viewer.email || 'Anonymous viewer';

/** The company of an identified viewer: the domain of their address, unless anyone can have one there. */
export function companyOf(v: View): string {
  if (!v.viewer.email) return '—';
  const domain = emailDomain(v.viewer.email);
  return isFreeMailDomain(domain) ? 'Individual' : domain;
}

const reached = (v: View) => (v.steps_viewed.length === 0 ? 0 : Math.max(...v.steps_viewed));

/** Recent viewers; a row opens that view's journey through the steps. */
export function ViewersTable({ views, stepCount, titles }: { views: View[]; stepCount: number; titles: Map<number, string> }) {
  const [open, setOpen] = useState<View | null>(null);
  const columns: Column<View>[] = [
    {
      key: 'viewer',
      header: 'Viewer',
      kind: 'primary',
      render: (v) => (
        <button type="button" className="link-button cell-stack" onClick={() => setOpen(v)}>
          <span>{viewerLabel(v)}</span>
          {v.viewer.name && v.viewer.email ? <span className="cell-sub">{v.viewer.email}</span> : null}
        </button>
      ),
    },
    { key: 'company', header: 'Company', render: companyOf },
    { key: 'steps', header: 'Steps reached', render: (v) => `${reached(v)} of ${stepCount}` },
    { key: 'completed', header: 'Completed', render: (v) => (v.completed ? 'Yes' : 'No') },
    { key: 'duration', header: 'Time', render: (v) => formatSeconds(v.duration_seconds) },
    { key: 'started', header: 'Started', kind: 'nowrap', render: (v) => formatDateTime(v.started_at) },
  ];
  return (
    <>
      <Table caption="Recent viewers" columns={columns} rows={views} rowKey={(v) => v.id} />
      {open ? <JourneyDialog view={open} others={views.filter((v) => v.id !== open.id && sameViewer(v, open))} titles={titles} onClose={() => setOpen(null)} onOpen={setOpen} /> : null}
    </>
  );
}

const sameViewer = (a: View, b: View) =>
  (a.viewer.email !== null && a.viewer.email === b.viewer.email) ||
  (a.viewer.anonymous_id !== null && a.viewer.anonymous_id === b.viewer.anonymous_id);

/** One view, step by step with the seconds spent on each, and the same viewer's other views. */
function JourneyDialog({ view, others, titles, onClose, onOpen }: { view: View; others: View[]; titles: Map<number, string>; onClose(): void; onOpen(v: View): void }) {
  const times = new Map(view.step_times.map((s) => [s.number, s.seconds]));
  const order = [...view.steps_viewed];
  return (
    <Dialog
      title={viewerLabel(view)}
      description={`${formatDateTime(view.started_at)} · ${companyOf(view)} · ${view.completed ? 'completed' : 'did not finish'} · ${formatSeconds(view.duration_seconds)}`}
      onClose={onClose}
    >
      <ol className="journey">
        {order.map((n) => (
          <li key={n}>
            <span className="journey-step">Step {n}</span>
            {titles.get(n) ? <span className="journey-title">{titles.get(n)}</span> : null}
            <span className="muted">{formatSeconds(times.get(n) ?? 0)}</span>
          </li>
        ))}
        {order.length === 0 ? <li className="muted">Opened the demo but reached no step.</li> : null}
      </ol>
      {others.length > 0 ? (
        <>
          <h3 className="journey-others">Their other views</h3>
          <ul className="journey-list">
            {others.map((o) => (
              <li key={o.id}>
                <button type="button" className="link-button" onClick={() => onOpen(o)}>
                  {formatDateTime(o.started_at)}
                </button>{' '}
                <span className="muted">
                  {o.steps_viewed.length} steps{o.completed ? ', completed' : ''}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </Dialog>
  );
}
