import { useState } from 'react';
import { Link } from 'react-router';
import { linkName, type Share, sharesApi } from '../../api/shares.api';
import { workspaceApi } from '../../api/workspace.api';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyField } from '../../components/copy-field';
import { Dialog } from '../../components/dialog';
import { CheckIcon, CopyIcon, PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { useToast } from '../../components/toast';
import { formatDate, formatRelative } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { AccessLogDialog } from './access-log-dialog';
import { ExperimentDialog } from '../experiments/experiment-dialog';
import { EmbedCode } from './embed-code';
import { ShareForm } from './share-form';
import './shares.css';

export interface ShareableDemo {
  id: string;
  title: string;
  status: string;
}

type View = { kind: 'list' } | { kind: 'new' } | { kind: 'edit'; share: Share } | { kind: 'created'; share: Share };

/** Share links of one demo: create and edit (password, expiry, identification, allow-lists), copy, embed, revoke, audit. */
export function ShareDialog({ demo, onClose }: { demo: ShareableDemo; onClose(): void }) {
  const links = useResource(() => sharesApi.list(demo.id));
  // New links start from the workspace's defaults; without them (still loading, or failed) from the product's.
  const workspace = useResource(() => workspaceApi.get());
  const [view, setView] = useState<View>({ kind: 'list' });
  const [embedding, setEmbedding] = useState<Share | null>(null);
  const [revoking, setRevoking] = useState<Share | null>(null);
  const [auditing, setAuditing] = useState<Share | null>(null);
  const [testing, setTesting] = useState<Share | null>(null);
  const notify = useToast();

  return (
    <Dialog
      title={`Share “${demo.title}”`}
      description="Anyone with a link can play the published demo, behind the password, expiry and identification you set."
      size="lg"
      onClose={onClose}
    >
      <div className="stack">
        {demo.status !== 'published' ? (
          <Alert tone="warning" title="This demo is not published">
            Links work once it is published; until then viewers see “This demo is not published yet”.
          </Alert>
        ) : null}

        {view.kind === 'new' ? (
          <ShareForm
            demoId={demo.id}
            key={workspace.status}
            defaults={workspace.data?.share_defaults}
            onCancel={() => setView({ kind: 'list' })}
            onSaved={(share) => {
              setView({ kind: 'created', share });
              void links.reload();
            }}
          />
        ) : null}

        {view.kind === 'edit' ? (
          <section className="stack" aria-label={`Edit ${linkName(view.share)}`}>
            <h3 className="share-heading">{`Edit “${linkName(view.share)}”`}</h3>
            <ShareForm
              demoId={demo.id}
              share={view.share}
              onCancel={() => setView({ kind: 'list' })}
              onSaved={(share) => {
                setView({ kind: 'list' });
                notify(`Link “${linkName(share)}” saved`);
                void links.reload();
              }}
            />
          </section>
        ) : null}

        {view.kind === 'created' ? (
          <section className="share-created stack" aria-label="New link">
            <Alert tone="success" title="Link created">
              Send it to your viewers, or embed the demo in a page.
            </Alert>
            <CopyField label="Link" value={view.share.url} />
            <EmbedCode share={view.share} title={demo.title} />
            <div className="row row-end">
              <Button variant="primary" onClick={() => setView({ kind: 'list' })}>
                Done
              </Button>
            </div>
          </section>
        ) : null}

        {view.kind === 'list' ? (
          <section className="stack" aria-label="Share links">
            <div className="section-header">
              <div>
                <h3 className="share-heading">Links</h3>
                <p className="field-hint">Each link has its own settings and its own views; revoke one without touching the others.</p>
              </div>
              <Button variant="primary" icon={<PlusIcon />} onClick={() => setView({ kind: 'new' })}>
                New link
              </Button>
            </div>
            {links.status === 'loading' ? <p className="field-hint">Loading links…</p> : null}
            {links.status === 'error' ? <LoadError error={links.error} onRetry={links.reload} /> : null}
            {links.status === 'ready' && links.data.rows.length === 0 ? (
              <div className="share-empty">
                <p className="cell-strong">No links yet</p>
                <p className="field-hint">Create a link to send this demo to prospects or embed it on your site.</p>
              </div>
            ) : null}
            {links.status === 'ready' && links.data.rows.length > 0 ? (
              <ul className="share-list">
                {links.data.rows.map((share) => (
                  <ShareRow
                    key={share.id}
                    share={share}
                    onEdit={() => setView({ kind: 'edit', share })}
                    onEmbed={() => setEmbedding(share)}
                    onLog={() => setAuditing(share)}
                    onTest={() => setTesting(share)}
                    onRevoke={() => setRevoking(share)}
                  />
                ))}
              </ul>
            ) : null}
          </section>
        ) : null}
      </div>

      {embedding ? (
        <Dialog
          title="Embed this demo"
          description="Paste the code into your site's HTML. The player fills the width of its container and keeps the demo's proportions."
          onClose={() => setEmbedding(null)}
          footer={<Button onClick={() => setEmbedding(null)}>Done</Button>}
        >
          <div className="stack">
            <EmbedCode share={embedding} title={demo.title} />
            <p className="field-hint">
              The embedded player tells the page around it where the viewer is (step reached, hotspot clicked, completed) through
              <code> postMessage</code>; see the player documentation.
            </p>
          </div>
        </Dialog>
      ) : null}

      {auditing ? <AccessLogDialog share={auditing} onClose={() => setAuditing(null)} /> : null}
      {testing ? <ExperimentDialog share={testing} demo={demo} onClose={() => setTesting(null)} /> : null}

      {revoking ? (
        <ConfirmDialog
          title={`Revoke “${linkName(revoking)}”?`}
          confirmLabel="Revoke link"
          danger
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await sharesApi.revoke(revoking.id);
            setRevoking(null);
            notify(`Link “${linkName(revoking)}” revoked`);
            await links.reload();
          }}
        >
          Anyone opening it, or playing the demo through it, gets “This demo is not available” from now on. Its views stay in your
          analytics. This cannot be undone.
        </ConfirmDialog>
      ) : null}
    </Dialog>
  );
}

function ShareRow({
  share,
  onEdit,
  onEmbed,
  onLog,
  onTest,
  onRevoke,
}: {
  share: Share;
  onEdit(): void;
  onEmbed(): void;
  onLog(): void;
  onTest(): void;
  onRevoke(): void;
}) {
  const expired = share.expires_at !== null && new Date(share.expires_at).getTime() <= Date.now();
  const name = linkName(share);
  return (
    <li className="share-row">
      <div className="share-row-main">
        <div className="share-row-title">
          <span className="cell-strong">{name}</span>
          <span className="chips">
            {share.hub_id ? <Badge tone="accent">Hub entry</Badge> : null}
            {share.has_password ? <Badge tone="accent">Password</Badge> : null}
            {share.require_identification ? <Badge tone="accent">Identification</Badge> : null}
            {share.allowed_emails.length + share.allowed_domains.length > 0 ? (
              <Badge>{`Allow-list: ${share.allowed_emails.length + share.allowed_domains.length}`}</Badge>
            ) : null}
            {Object.entries(share.variables ?? {})
              .slice(0, 3)
              .map(([key, value]) => (
                <Badge key={key}>{`${key}: ${value.length > 24 ? `${value.slice(0, 23)}…` : value}`}</Badge>
              ))}
            {Object.keys(share.variables ?? {}).length > 3 ? <Badge>{`+${Object.keys(share.variables).length - 3}`}</Badge> : null}
            {expired ? (
              <Badge tone="danger">Expired</Badge>
            ) : share.expires_at ? (
              <Badge tone="warning">{`Expires ${formatDate(share.expires_at)}`}</Badge>
            ) : null}
          </span>
        </div>
        <span className="share-url mono truncate" title={share.url}>
          {share.url}
        </span>
        <span className="cell-sub">
          {share.view_count === 1 ? '1 view' : `${share.view_count} views`}
          {' · '}
          {share.last_viewed_at ? `last viewed ${formatRelative(share.last_viewed_at)}` : 'not viewed yet'}
          {' · '}created {formatDate(share.created_at)}
        </span>
      </div>
      <div className="share-row-actions">
        <CopyButton value={share.url} label="Copy link" name={name} />
        {share.hub_id ? (
          // A hub's entry link: its gates and its life are the hub's (PATCH /v1/shares/:id refuses its gates).
          <Link className="btn btn-secondary btn-sm" to={`/hubs/${share.hub_id}`} aria-label={`Manage ${name} on its hub`}>
            Manage on the hub
          </Link>
        ) : (
          <Button size="sm" onClick={onEdit} aria-label={`Edit ${name}`}>
            Edit
          </Button>
        )}
        <Button size="sm" onClick={onEmbed} aria-label={`Embed code for ${name}`}>
          Embed
        </Button>
        <Button size="sm" onClick={onLog} aria-label={`Access log of ${name}`}>
          Access log
        </Button>
        <Button size="sm" onClick={onTest} aria-label={`A/B test of ${name}`}>
          A/B test
        </Button>
        {share.hub_id ? null : (
          <Button size="sm" variant="ghost" className="btn-danger-text" onClick={onRevoke} aria-label={`Revoke ${name}`}>
            Revoke
          </Button>
        )}
      </div>
    </li>
  );
}

function CopyButton({ value, label, name }: { value: string; label: string; name: string }) {
  const [copied, setCopied] = useState(false);
  const notify = useToast();
  return (
    <Button
      size="sm"
      icon={copied ? <CheckIcon /> : <CopyIcon />}
      aria-label={`${label} of ${name}`}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        } catch {
          notify(`Copying is blocked in this browser. The link is ${value}`, 'danger');
        }
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </Button>
  );
}
