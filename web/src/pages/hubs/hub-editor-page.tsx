import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { type HubEntry, hubsApi } from '../../api/hubs.api';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyField } from '../../components/copy-field';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';
import { HubAnalyticsPanel } from './hub-analytics-panel';
import { HubContentEditor } from './hub-content-editor';
import { HubAccessForm, HubPageForm } from './hub-settings';
import { HubVisitorsPanel } from './hub-visitors-panel';
import './hubs.css';

/** The embed snippet: a responsive iframe; `data-consent`-style pending consent is the ?consent=pending parameter. */
export const embedCode = (embedUrl: string, pending: boolean) =>
  `<iframe src="${embedUrl}${pending ? '?consent=pending' : ''}" title="Product demos" style="width:100%;height:820px;border:0" allow="fullscreen; clipboard-write" allowfullscreen></iframe>`;

/** One hub: its share and embed code, its demos, its page text and gates, its analytics and visitors. */
export function HubEditorPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const notify = useToast();
  const allowed = useCan();
  const canEdit = allowed('shares.write');
  const hub = useResource(() => hubsApi.get(id));
  const [deleting, setDeleting] = useState(false);
  const [version, setVersion] = useState(0);
  if (hub.status === 'loading') return <LoadingBlock label="Loading the hub…" />;
  if (hub.status === 'error') return <LoadError error={hub.error} onRetry={hub.reload} />;
  const data = hub.data;
  const token = data.url.split('/h/')[1] ?? '';
  const coverOf = (e: HubEntry) => `/v1/hub-viewer/${token}/entries/${e.id}/cover?v=${version}`;
  const reload = async () => {
    setVersion((v) => v + 1);
    await hub.reload();
  };
  return (
    <>
      <p className="hub-crumb">
        <Link to="/hubs">← Hubs</Link>
      </p>
      <PageHeader
        title={data.name}
        description="A branded page of your demos. Viewers pass its gates once, then play any demo."
        actions={
          <>
            <a className="btn btn-secondary" href={data.url} target="_blank" rel="noopener">
              View page
            </a>
            {canEdit ? (
              <Button variant="ghost" className="btn-danger-text" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            ) : null}
          </>
        }
      />
      <div className="hub-editor">
        <section className="card" aria-labelledby="hub-share">
          <div className="card-header">
            <h2 id="hub-share">Share and embed</h2>
          </div>
          <div className="card-body stack">
            <CopyField label="Hub link" value={data.url} copyLabel="hub link" />
            <CopyField label="Embed code" value={embedCode(data.embed_url, false)} copyLabel="embed code" />
            <CopyField label="Embed code, cookies only after consent" value={embedCode(data.embed_url, true)} copyLabel="consent-aware embed code" />
            <p className="muted">
              With <code>?consent=pending</code> the hub stores nothing in the visitor's browser until your page sends{' '}
              <code>{"postMessage({type: 'demoshare:consent', granted: true})"}</code> to the frame.
            </p>
          </div>
        </section>
        <section className="card" aria-labelledby="hub-demos">
          <div className="card-header">
            <h2 id="hub-demos">Demos</h2>
          </div>
          <div className="card-body">
            <HubContentEditor hub={data} canEdit={canEdit} onChanged={reload} coverOf={coverOf} />
          </div>
        </section>
        <section className="card" aria-labelledby="hub-page">
          <div className="card-header">
            <h2 id="hub-page">Page</h2>
            <p className="muted">Logo, colour and font come from the workspace's branding (Settings → Workspace).</p>
          </div>
          <div className="card-body">
            <HubPageForm key={data.updated_at} hub={data} canEdit={canEdit} onSaved={reload} />
          </div>
        </section>
        <section className="card" aria-labelledby="hub-access">
          <div className="card-header">
            <h2 id="hub-access">Access</h2>
            <p className="muted">Every demo of the hub asks the same, once: a viewer never passes a gate twice.</p>
          </div>
          <div className="card-body">
            <HubAccessForm key={data.updated_at} hub={data} canEdit={canEdit} onSaved={reload} />
          </div>
        </section>
        {allowed('analytics.read') ? (
          <>
            <HubAnalyticsPanel hubId={data.id} />
            <HubVisitorsPanel hubId={data.id} />
          </>
        ) : null}
      </div>
      {deleting ? (
        <ConfirmDialog
          title="Delete this hub?"
          confirmLabel="Delete hub"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await hubsApi.remove(data.id);
            notify('Hub deleted');
            navigate('/hubs');
          }}
        >
          <p>Its page stops working at once and the links of its demos are revoked. The views they counted stay.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
