import { useState } from 'react';
import { emailDomain, isFreeMailDomain } from '../../../../src/core/free-mail';
import { analyticsApi, type View } from '../../api/analytics.api';
import { Dialog } from '../../components/dialog';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';
import { EraseViewerButton, EraseViewerDialog } from './erase-viewer-action';
import { formatSeconds } from './headline';

/** Who a viewer is, as far as we know: their name and address, or "Anonymous viewer". */
export const viewerLabel = (v: View) => v.viewer.name || v.viewer.email || 'Anonymous viewer';

/** The company of an identified viewer: the domain of their address, unless anyone can have one there. */
export function companyOf(v: View): string {
  if (!v.viewer.email) return '—';
  const domain = emailDomain(v.viewer.email);
  return isFreeMailDomain(domain) ? 'Individual' : domain;
}

/** The share link a view came through, with the account a personalised link names (its `company`). */
export function linkOf(v: View): string {
  if (!v.link) return '—';
  const account = v.link.variables.company;
  const name = v.link.name || 'Unnamed link';
  return account && !name.includes(account) ? `${name} (${account})` : name;
}

const reached = (v: View) => (v.steps_viewed.length === 0 ? 0 : Math.max(...v.steps_viewed));

/** Recent viewers; a row opens that view's journey through the steps. Admins can erase an identified viewer. */
export function ViewersTable({ demoId, views, stepCount, onErased }: { demoId: string; views: View[]; stepCount: number; onErased(): void }) {
  // `?view=<id>` opens that view's journey at once: the address Slack alerts' "Open the journey" button links to.
  const [open, setOpen] = useState<{ demoId: string; viewId: string } | null>(() => {
    const viewId = new URLSearchParams(window.location.search).get('view');
    return viewId ? { demoId, viewId } : null;
  });
  const [erasing, setErasing] = useState<string | null>(null);
  const mayErase = useCan()('viewers.erase');
  const columns: Column<View>[] = [
    {
      key: 'viewer',
      header: 'Viewer',
      kind: 'primary',
      render: (v) => (
        <button type="button" className="link-button cell-stack" onClick={() => setOpen({ demoId, viewId: v.id })}>
          <span>{viewerLabel(v)}</span>
          {v.viewer.name && v.viewer.email ? <span className="cell-sub">{v.viewer.email}</span> : null}
        </button>
      ),
    },
    { key: 'company', header: 'Company', render: companyOf },
    { key: 'link', header: 'Link', render: (v) => linkOf(v) },
    { key: 'steps', header: 'Steps reached', render: (v) => `${reached(v)} of ${stepCount}` },
    { key: 'completed', header: 'Completed', render: (v) => (v.completed ? 'Yes' : 'No') },
    { key: 'duration', header: 'Time', render: (v) => formatSeconds(v.duration_seconds) },
    { key: 'started', header: 'Started', kind: 'nowrap', render: (v) => formatDateTime(v.started_at) },
  ];
  if (mayErase) {
    columns.push({
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      kind: 'actions',
      render: (v) => (v.viewer.email ? <EraseViewerButton email={v.viewer.email} onClick={() => setErasing(v.viewer.email)} /> : null),
    });
  }
  return (
    <>
      <Table caption="Recent viewers" columns={columns} rows={views} rowKey={(v) => v.id} />
      {erasing ? <EraseViewerDialog email={erasing} onClose={() => setErasing(null)} onErased={onErased} /> : null}
      {open ? <JourneyDialog key={open.viewId} demoId={open.demoId} viewId={open.viewId} onClose={() => setOpen(null)} onOpen={setOpen} /> : null}
    </>
  );
}

/**
 * One view, step by step in the order reached with the seconds spent on each (titles as in the version
 * played), and the same viewer's other views, of this demo or another, each opening in turn.
 */
function JourneyDialog({ demoId, viewId, onClose, onOpen }: { demoId: string; viewId: string; onClose(): void; onOpen(target: { demoId: string; viewId: string }): void }) {
  const journey = useResource(() => analyticsApi.journey(demoId, viewId));
  if (journey.status !== 'ready') {
    return (
      <Dialog title="Viewer journey" onClose={onClose}>
        {journey.status === 'loading' ? <LoadingBlock label="Loading the journey…" /> : <LoadError error={journey.error} onRetry={journey.reload} />}
      </Dialog>
    );
  }
  const { view, steps, other_views: others } = journey.data;
  return (
    <Dialog
      title={viewerLabel(view)}
      description={`${formatDateTime(view.started_at)} · ${companyOf(view)} · ${view.completed ? 'completed' : 'did not finish'} · ${formatSeconds(view.duration_seconds)}`}
      onClose={onClose}
    >
      <ol className="journey">
        {steps.map((s) => (
          <li key={s.number}>
            <span className="journey-step">Step {s.number}</span>
            {s.title ? <span className="journey-title">{s.title}</span> : null}
            <span className="muted">{formatSeconds(s.seconds)}</span>
          </li>
        ))}
        {steps.length === 0 ? <li className="muted">Opened the demo but reached no step.</li> : null}
      </ol>
      {others.length > 0 ? (
        <>
          <h3 className="journey-others">Their other views</h3>
          <ul className="journey-list">
            {others.map((o) => (
              <li key={o.id}>
                <button type="button" className="link-button" onClick={() => onOpen({ demoId: o.demo_id, viewId: o.id })}>
                  {formatDateTime(o.started_at)}
                </button>{' '}
                <span className="muted">
                  {o.demo_id === demoId ? '' : `${o.demo_title || 'Untitled demo'} · `}
                  {o.steps_viewed.length} {o.steps_viewed.length === 1 ? 'step' : 'steps'}
                  {o.completed ? ', completed' : ''}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : view.viewer.email ? (
        <p className="muted journey-others">No other views by {view.viewer.email}.</p>
      ) : null}
    </Dialog>
  );
}
