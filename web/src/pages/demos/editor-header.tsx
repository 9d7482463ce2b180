import { LIMITS } from '../../api/limits';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { demosApi } from '../../api/demos.api';
import type { DemoDetail, DemoStatus } from '../../api/types';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { useCan } from '../../session/use-can';
import { ShareButton } from '../shares/share-button';
import { DemoStatusBadge } from './demo-status';
import type { DemoChange } from './use-demo-change';

/** The editor's header: the title (edited in place), the status, and what can be done to the whole demo. */
export function EditorHeader({
  demo,
  readOnly,
  busy,
  act,
  onPreview,
  onDelete,
}: {
  demo: DemoDetail;
  readOnly: boolean;
  busy: boolean;
  act: DemoChange;
  onPreview(): void;
  onDelete(): void;
}) {
  const allowed = useCan();
  const [title, setTitle] = useState(demo.title);

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
            {demo.status === 'published' ? <Button onClick={() => setStatus('draft', 'Demo unpublished')}>Unpublish</Button> : null}
            {demo.status === 'draft' || demo.status === 'published' ? <Button onClick={() => setStatus('archived', 'Demo archived')}>Archive</Button> : null}
            {demo.status === 'archived' ? <Button onClick={() => setStatus('draft', 'Demo restored as a draft')}>Restore</Button> : null}
            {demo.source_url && demo.status !== 'published' ? (
              <Button onClick={() => act(() => demosApi.generate(demo.id), 'Generating the demo again')}>Regenerate</Button>
            ) : null}
            {allowed('demos.delete') ? (
              <Button variant="ghost" className="btn-danger-text" onClick={onDelete}>
                Delete
              </Button>
            ) : null}
          </>
        )}
      </div>
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
