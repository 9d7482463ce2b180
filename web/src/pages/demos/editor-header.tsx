import { LIMITS } from '../../api/limits';
import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { demosApi } from '../../api/demos.api';
import type { DemoDetail, DemoStatus } from '../../api/types';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Checkbox } from '../../components/field';
import { useToast } from '../../components/toast';
import { useCan } from '../../session/use-can';
import { ShareButton } from '../shares/share-button';
import { DemoStatusBadge } from './demo-status';
import type { DemoChange, SaveState } from './use-demo-change';
import { VersionsDialog } from './versions-dialog';
import { EditorMenu, type MenuAction } from './editor-menu';
import { ExportDialog } from './export-dialog';
import { TranslationsDialog } from './translations-dialog';
import { useUnsavedMark, useUnsavedText } from './use-draft-backup';

/** The editor's header: the title (edited in place), the status, and what can be done to the whole demo. */
export function EditorHeader({
  demo,
  readOnly,
  act,
  afterSaves,
  saveState,
  onPreview,
  onDelete,
  reload,
  onCheckForChanges,
}: {
  demo: DemoDetail;
  readOnly: boolean;
  saveState: SaveState;
  act: DemoChange;
  /** Resolves once the saves on their way are done: true when they all worked. */
  afterSaves(): Promise<boolean>;
  onPreview(): void;
  onDelete(): void;
  reload(): Promise<void>;
  /** More → Check for changes (the stale-demo check's dialog). */
  onCheckForChanges?(): void;
}) {
  const allowed = useCan();
  const [title, setTitle] = useState(demo.title);
  const [showVersions, setShowVersions] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [translating, setTranslating] = useState(false);
  const [discarding, setDiscarding] = useState(false);
  const [regenerating, setRegenerating] = useState(false);
  const [publishing, setPublishing] = useState(false);
  const notify = useToast();
  const changed = demo.status === 'published' && demo.has_unpublished_changes;

  useEffect(() => setTitle(demo.title), [demo.title]);
  useUnsavedMark(`${demo.id}:title`, title !== demo.title);
  const setStatus = (status: Exclude<DemoStatus, 'generating'>, done: string) => act(() => demosApi.update(demo.id, { status }), done);
  // Clicking Publish right after typing leaves the field, which starts a save: the click is not lost to
  // it, the publish waits for the saves on their way and then goes, with what they saved.
  const publish = async (work: () => Promise<unknown>, done: string) => {
    if (publishing) return;
    setPublishing(true);
    try {
      if (await afterSaves()) await act(work, done);
      else notify('Not published: a change could not be saved. Check it, then publish again.', 'danger');
    } finally {
      setPublishing(false);
    }
  };
  const more: MenuAction[] = readOnly
    ? [
        { label: 'Versions', onSelect: () => setShowVersions(true) },
        { label: 'Export', onSelect: () => setExporting(true) },
        ...(onCheckForChanges ? [{ label: 'Check for changes', onSelect: onCheckForChanges }] : []),
        { label: 'Translations', onSelect: () => setTranslating(true) },
      ]
    : [
        { label: 'Versions', onSelect: () => setShowVersions(true) },
        { label: 'Export', onSelect: () => setExporting(true) },
        ...(onCheckForChanges ? [{ label: 'Check for changes', onSelect: onCheckForChanges }] : []),
        { label: 'Translations', onSelect: () => setTranslating(true) },
        ...(changed ? [{ label: 'Discard changes', onSelect: () => setDiscarding(true) }] : []),
        ...(demo.status === 'published' ? [{ label: 'Unpublish', onSelect: () => void setStatus('draft', 'Demo unpublished') }] : []),
        ...(demo.source_url && demo.status !== 'published' ? [{ label: 'Regenerate', onSelect: () => setRegenerating(true) }] : []),
        ...(demo.status === 'draft' || demo.status === 'published' ? [{ label: 'Archive', onSelect: () => void setStatus('archived', 'Demo archived') }] : []),
        ...(allowed('demos.delete') ? [{ label: 'Delete', danger: true, onSelect: onDelete }] : []),
      ];

  return (
    <header className="editor-header">
      <div className="editor-title">
        <Link to="/demos" className="back-link">
          ← Demos
        </Link>
        <div className="editor-title-block">
          {/* A text area so that a long title wraps between words instead of being cut; Enter still saves. */}
          <textarea
            ref={fitHeight}
            className="title-input"
            aria-label="Demo title"
            title={demo.title}
            rows={1}
            value={title}
            readOnly={readOnly}
            maxLength={LIMITS.demoTitle}
            onChange={(e) => setTitle(e.target.value.replace(/\n/g, ' '))}
            onKeyDown={(e) => {
              if (e.key !== 'Enter') return;
              e.preventDefault();
              e.currentTarget.blur();
            }}
            onBlur={() => {
              if (title.trim() && title !== demo.title) void act(() => demosApi.update(demo.id, { title: title.trim() }));
              else setTitle(demo.title);
            }}
          />
          <div className="editor-meta">
            <DemoStatusBadge status={demo.status} />
            {readOnly ? null : <SaveIndicator state={saveState} />}
            {changed ? (
              <span title={`Viewers see version ${demo.published_version} until you publish the changes.`}>
                <Badge tone="warning">Unpublished changes</Badge>
              </span>
            ) : null}
          </div>
        </div>
      </div>
      <div className="editor-actions">
        <Button onClick={onPreview} disabled={demo.steps.length === 0}>
          Preview
        </Button>
        {demo.published_version !== null || demo.status === 'published' ? (
          <Link className="btn btn-secondary" to={`/demos/${demo.id}/analytics`}>
            Analytics
          </Link>
        ) : null}
        {readOnly ? null : (
          <>
            {allowed('shares.write') ? <ShareButton demo={demo} /> : null}
            {demo.status === 'archived' ? <Button onClick={() => setStatus('draft', 'Demo restored as a draft')}>Restore</Button> : null}
            {demo.status === 'draft' ? (
              <Button
                variant="primary"
                loading={publishing}
                onClick={() => publish(() => demosApi.update(demo.id, { status: 'published' }), 'Demo published')}
                disabled={demo.steps.length === 0}
              >
                Publish
              </Button>
            ) : null}
            {changed ? (
              <Button variant="primary" loading={publishing} onClick={() => publish(() => demosApi.publish(demo.id), 'Changes published')}>
                Publish changes
              </Button>
            ) : null}
          </>
        )}
        <EditorMenu actions={more} />
      </div>
      {showVersions ? <VersionsDialog demo={demo} readOnly={readOnly} onRestored={reload} onClose={() => setShowVersions(false)} /> : null}
      {exporting ? <ExportDialog demo={demo} onClose={() => setExporting(false)} /> : null}
      {translating ? <TranslationsDialog demo={demo} readOnly={readOnly} onClose={() => setTranslating(false)} /> : null}
      {regenerating ? <RegenerateDialog demo={demo} act={act} onClose={() => setRegenerating(false)} /> : null}
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

/** Grows the title's text area to its lines (it wraps between words instead of scrolling). */
function fitHeight(el: HTMLTextAreaElement | null) {
  if (!el) return;
  const resize = () => {
    el.style.height = 'auto';
    el.style.height = `${el.scrollHeight + 2}px`;
  };
  resize();
  el.oninput = resize;
  if (!el.dataset.fitted) {
    el.dataset.fitted = '1';
    new ResizeObserver(resize).observe(el);
  }
}

/** The quiet word for saves ("Unsaved changes…", "Saving…", "All changes saved"), read out politely by screen readers. */
function SaveIndicator({ state: saved }: { state: SaveState }) {
  // Text typed and not yet handed to a save comes first: it is what would be lost.
  const state = useUnsavedText() ? 'unsaved' : saved;
  const text = { idle: '', unsaved: 'Unsaved changes…', saving: 'Saving…', saved: 'All changes saved', failed: 'Not saved' }[state];
  return (
    <span className={`save-indicator save-indicator-${state}`} role="status" data-testid="save-indicator">
      {text}
    </span>
  );
}

/** Asks before generating again, saying what is replaced, and offers to keep the steps edited by hand. */
function RegenerateDialog({ demo, act, onClose }: { demo: DemoDetail; act: DemoChange; onClose(): void }) {
  const edited = demo.steps.filter((s) => s.edited_at).length;
  const [keep, setKeep] = useState(edited > 0);
  return (
    <ConfirmDialog
      title="Generate this demo again?"
      confirmLabel="Regenerate"
      danger={!keep && edited > 0}
      onClose={onClose}
      onConfirm={async () => {
        onClose();
        await act(() => demosApi.generate(demo.id, { keep_edited_steps: keep }), 'Generating the demo again');
      }}
    >
      <p>
        Demoshare captures {demo.source_url} again and writes new steps. {keep ? 'The steps nobody edited are replaced.' : 'Every step is replaced.'} If
        generation fails, the steps stay as they are.
      </p>
      {edited > 0 ? (
        <Checkbox
          label={`Keep the ${edited === 1 ? 'step' : `${edited} steps`} you made or edited`}
          description="They stay at their numbers; the new steps fill the other places."
          checked={keep}
          onChange={(e) => setKeep(e.target.checked)}
        />
      ) : (
        <p>No step was edited by hand.</p>
      )}
    </ConfirmDialog>
  );
}
