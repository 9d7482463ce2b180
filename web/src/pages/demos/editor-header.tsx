import { LIMITS } from '../../api/limits';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { demosApi } from '../../api/demos.api';
import type { DemoDetail, DemoStatus } from '../../api/types';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { useCan } from '../../session/use-can';
import { ShareButton } from '../shares/share-button';
import { DemoStatusBadge } from './demo-status';
import type { DemoChange } from './use-demo-change';
import { VersionsDialog } from './versions-dialog';

/** The editor's header: the title (edited in place), the status, and what can be done to the whole demo. */
export function EditorHeader({
  demo,
  readOnly,
  busy,
  act,
  onPreview,
  onDelete,
  reload,
}: {
  demo: DemoDetail;
  readOnly: boolean;
  busy: boolean;
  act: DemoChange;
  onPreview(): void;
  onDelete(): void;
  reload(): Promise<void>;
}) {
  const allowed = useCan();
  const [title, setTitle] = useState(demo.title);
  const [showVersions, setShowVersions] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const changed = demo.status === 'published' && demo.has_unpublished_changes;

  useEffect(() => setTitle(demo.title), [demo.title]);
  const setStatus = (status: Exclude<DemoStatus, 'generating'>, done: string) => act(() => demosApi.update(demo.id, { status }), done);

  return (
    <header className="editor-header">
      <div className="editor-title">
        <Link to="/demos" className="back-link">
          ← Demos
        </Link>
        <input
          className="title-input"
          aria-label="Demo title"
          value={title}
          readOnly={readOnly}
          maxLength={LIMITS.demoTitle}
          onChange={(e) => setTitle(e.target.value)}
          onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
          onBlur={() => {
            if (title.trim() && title !== demo.title) void act(() => demosApi.update(demo.id, { title: title.trim() }));
            else setTitle(demo.title);
          }}
        />
        <DemoStatusBadge status={demo.status} />
        {changed ? (
          <span title={`Viewers see version ${demo.published_version} until you publish the changes.`}>
            <Badge tone="warning">Unpublished changes</Badge>
          </span>
        ) : null}
      </div>
      <div className="editor-actions">
        <Button onClick={onPreview} disabled={demo.steps.length === 0}>
          Preview
        </Button>
        {readOnly ? null : (
          <>
            {allowed('shares.write') ? <ShareButton demo={demo} /> : null}
            {demo.status === 'draft' ? (
              <Button variant="primary" loading={busy} onClick={() => setStatus('published', 'Demo published')} disabled={demo.steps.length === 0}>
                Publish
              </Button>
            ) : null}
            {changed ? (
              <>
                <Button variant="primary" loading={busy} onClick={() => act(() => demosApi.publish(demo.id), 'Changes published')}>
                  Publish changes
                </Button>
                <Button onClick={() => setDiscarding(true)}>Discard changes</Button>
              </>
            ) : null}
            {demo.status === 'published' ? <Button onClick={() => setStatus('draft', 'Demo unpublished')}>Unpublish</Button> : null}
            {demo.status === 'draft' || demo.status === 'published' ? <Button onClick={() => setStatus('archived', 'Demo archived')}>Archive</Button> : null}
            {demo.status === 'archived' ? <Button onClick={() => setStatus('draft', 'Demo restored as a draft')}>Restore</Button> : null}
            {demo.source_url && demo.status !== 'published' ? (
              <Button onClick={() => act(() => demosApi.generate(demo.id), 'Generating the demo again')}>Regenerate</Button>
            ) : null}
            <Button onClick={() => setShowVersions(true)}>Versions</Button>
            {allowed('demos.delete') ? (
              <Button variant="ghost" className="btn-danger-text" onClick={onDelete}>
                Delete
              </Button>
            ) : null}
          </>
        )}
        {readOnly ? <Button onClick={() => setShowVersions(true)}>Versions</Button> : null}
      </div>
      {showVersions ? <VersionsDialog demo={demo} readOnly={readOnly} onRestored={reload} onClose={() => setShowVersions(false)} /> : null}
      {discarding && demo.published_version !== null ? (
        <ConfirmDialog
          title="Discard the unpublished changes?"
          confirmLabel="Discard changes"
          danger
          onClose={() => setDiscarding(false)}
          onConfirm={async () => {
            await demosApi.restoreVersion(demo.id, demo.published_version!);
            await reload();
            setDiscarding(false);
          }}
        >
          <p>The draft goes back to version {demo.published_version}, the one viewers see. Edits made since it was published are lost.</p>
        </ConfirmDialog>
      ) : null}
    </header>
  );
}

/** Asks before deleting the demo, then leaves for the list. */
export function DeleteDemoDialog({ demo, onClose }: { demo: DemoDetail; onClose(): void }) {
  const navigate = useNavigate();
  const notify = useToast();
  return (
    <ConfirmDialog
      title={`Delete ${demo.title}?`}
      confirmLabel="Delete demo"
      danger
      onClose={onClose}
      onConfirm={async () => {
        await demosApi.remove(demo.id);
        notify(`${demo.title} was deleted`);
        navigate('/demos');
      }}
    >
      <p>Its steps, images and share links are deleted for good. Viewers with a link will no longer see it.</p>
    </ConfirmDialog>
  );
}
