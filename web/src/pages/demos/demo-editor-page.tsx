import { type ChangeEvent, type DragEvent, useEffect, useRef, useState } from 'react';
import { ShareButton } from '../shares/share-button';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { assetPath, demosApi } from '../../api/demos.api';
import type { DemoDetail, DemoStatus, Hotspot, Step } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { LoadingBlock, Spinner } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';
import { isAdmin, useSession } from '../../session/session-context';
import { DemoPreview } from './demo-preview';
import { DemoStatusBadge } from './demo-status';
import { ConfigurationPanel, HotspotPanel, StepPanel } from './editor-panels';
import { SnapshotFrame } from './snapshot-frame';
import { type Box, StepCanvas } from './step-canvas';

const POLL_MS = 1000;
const IMAGE_TYPES = 'image/png,image/jpeg,image/webp';

export function DemoEditorPage() {
  const { id = '' } = useParams();
  const demo = useResource(() => demosApi.get(id));
  const { reload } = demo;
  const generating = demo.status === 'ready' && demo.data.status === 'generating';

  // While the demo is being generated, poll until the job has written its steps.
  useEffect(() => {
    if (!generating) return;
    const timer = setInterval(() => void reload(), POLL_MS);
    return () => clearInterval(timer);
  }, [generating, reload]);

  if (demo.status === 'loading') return <LoadingBlock label="Loading the demo…" />;
  if (demo.status === 'error') return <LoadError error={demo.error} onRetry={demo.reload} />;
  if (generating) return <GenerationProgress demo={demo.data} />;
  return <Editor demo={demo.data} reload={demo.reload} />;
}

/** A step's miniature: its screenshot, or its HTML snapshot scaled down (no hotspots, no scripts). */
function StepThumb({ step }: { step: Step }) {
  if (step.image_url) return <img className="step-thumb" src={assetPath(step.image_url)} alt="" draggable={false} />;
  if (step.html_url) {
    return (
      <span className="step-thumb step-thumb-snapshot">
        <SnapshotFrame url={step.html_url} width={step.width ?? undefined} height={step.height ?? undefined} title={step.title} thumbnail />
      </span>
    );
  }
  return <span className="step-thumb step-thumb-empty" />;
}

function GenerationProgress({ demo }: { demo: DemoDetail }) {
  const running = demo.generation.status === 'running';
  return (
    <div className="generation-progress" aria-live="polite">
      <Link to="/demos" className="back-link">
        ← Demos
      </Link>
      <h1>{demo.title}</h1>
      <div className="generation-card">
        <Spinner size={28} />
        <div>
          <p className="cell-strong">{running ? 'Capturing the page and writing the steps…' : 'Waiting for a worker to start…'}</p>
          <p className="muted">{demo.source_url}</p>
          <ol className="generation-stages">
            <li className="done">Queued</li>
            <li className={running ? 'active' : ''}>Capturing {demo.source_url ? new URL(demo.source_url).hostname : 'the page'}</li>
            <li>Writing steps and hotspots</li>
          </ol>
        </div>
      </div>
    </div>
  );
}

function Editor({ demo, reload }: { demo: DemoDetail; reload(): Promise<void> }) {
  const session = useSession();
  const navigate = useNavigate();
  const notify = useToast();
  const readOnly = session.workspace.role === 'viewer';
  const [stepId, setStepId] = useState<string | null>(demo.steps[0]?.id ?? null);
  const [hotspotId, setHotspotId] = useState<string | null>(null);
  const [title, setTitle] = useState(demo.title);
  const [previewing, setPreviewing] = useState(false);
  // Drag-and-drop reordering: the step being dragged and the slot it would drop into (0…steps).
  const [drag, setDrag] = useState<{ from: number; slot: number | null } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [busy, setBusy] = useState(false);
  const upload = useRef<HTMLInputElement>(null);
  const replace = useRef<HTMLInputElement>(null);

  useEffect(() => setTitle(demo.title), [demo.title]);
  useEffect(() => {
    if (!demo.steps.some((s) => s.id === stepId)) setStepId(demo.steps[0]?.id ?? null);
  }, [demo.steps, stepId]);

  const step = demo.steps.find((s) => s.id === stepId) ?? null;
  const stepHotspots = step ? demo.hotspots.filter((h) => h.step_id === step.id) : [];
  const hotspot = stepHotspots.find((h) => h.id === hotspotId) ?? null;

  /** Runs a change, reloads the demo, and reports a refusal (409, 400...) in words. */
  async function act(work: () => Promise<unknown>, done?: string) {
    setBusy(true);
    try {
      await work();
      if (done) notify(done);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'That did not work. Try again.', 'danger');
    } finally {
      setBusy(false);
      await reload();
    }
  }

  const setStatus = (status: Exclude<DemoStatus, 'generating'>, done: string) => act(() => demosApi.update(demo.id, { status }), done);
  const moveStep = (from: number, to: number) => {
    const ids = demo.steps.map((s) => s.id);
    const [moved] = ids.splice(from, 1);
    ids.splice(to, 0, moved!);
    return act(() => demosApi.replaceSteps(demo.id, ids));
  };
  /** Dropping into slot `slot` (before step `slot`, or at the end) moves the dragged step there. */
  const dropAt = (slot: number) => {
    const from = drag?.from;
    setDrag(null);
    if (from === undefined) return;
    const to = slot > from ? slot - 1 : slot;
    if (to !== from) void moveStep(from, to);
  };
  const slotOf = (event: DragEvent<HTMLLIElement>, index: number) => {
    const box = event.currentTarget.getBoundingClientRect();
    return event.clientY < box.top + box.height / 2 ? index : index + 1;
  };
  // A box moved or resized by hand is where the author wants it: on a snapshot step the hotspot stops
  // following its element (selector), or the player would put it back on the element.
  const saveBox = (h: Hotspot, box: Box) => act(() => demosApi.updateHotspot(demo.id, h.step_id, h.id, h.selector ? { ...box, selector: null } : box));

  function pick(event: ChangeEvent<HTMLInputElement>, send: (file: File) => Promise<unknown>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void act(() => send(file), 'Image uploaded');
  }

  return (
    <div className="editor">
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
            maxLength={200}
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
          <Button onClick={() => setPreviewing(true)} disabled={demo.steps.length === 0}>
            Preview
          </Button>
          {readOnly ? null : (
            <>
              <ShareButton demo={demo} />
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
              {isAdmin(session) ? (
                <Button variant="ghost" className="btn-danger-text" onClick={() => setDeleting(true)}>
                  Delete
                </Button>
              ) : null}
            </>
          )}
        </div>
      </header>

      {demo.generation.status === 'failed' ? (
        <Alert tone="warning" title="Generation did not work">
          {demo.generation.error} You can add steps by hand or regenerate.
        </Alert>
      ) : null}

      <div className="editor-body">
        <nav className="step-list" aria-label="Steps">
          <ol>
            {demo.steps.map((s, i) => (
              <li
                key={s.id}
                className={[
                  'step-item',
                  s.id === stepId ? 'step-item-selected' : '',
                  drag?.from === i ? 'step-item-dragging' : '',
                  drag && drag.slot === i ? 'step-item-drop-before' : '',
                  drag && drag.slot === i + 1 && i === demo.steps.length - 1 ? 'step-item-drop-after' : '',
                ]
                  .filter(Boolean)
                  .join(' ')}
                draggable={!readOnly && !busy}
                onDragStart={(event) => {
                  event.dataTransfer.effectAllowed = 'move';
                  event.dataTransfer.setData('text/plain', s.id);
                  setDrag({ from: i, slot: null });
                }}
                onDragOver={(event) => {
                  if (!drag) return;
                  event.preventDefault();
                  event.dataTransfer.dropEffect = 'move';
                  const slot = slotOf(event, i);
                  if (slot !== drag.slot) setDrag({ ...drag, slot });
                }}
                onDrop={(event) => {
                  event.preventDefault();
                  dropAt(slotOf(event, i));
                }}
                onDragEnd={() => setDrag(null)}
              >
                {/* The thumbnail sits outside the button (a frame may not be inside one); the button covers it. */}
                <StepThumb step={s} />
                <button
                  type="button"
                  className="step-select"
                  onClick={() => {
                    setStepId(s.id);
                    setHotspotId(null);
                  }}
                  aria-current={s.id === stepId ? 'step' : undefined}
                >
                  <span className="step-name">
                    {s.number}. {s.title || 'Untitled step'}
                  </span>
                </button>
                {readOnly ? null : (
                  <span className="step-tools">
                    <button type="button" className="icon-button" aria-label={`Move step ${s.number} up`} disabled={i === 0 || busy} onClick={() => moveStep(i, i - 1)}>
                      ↑
                    </button>
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={`Move step ${s.number} down`}
                      disabled={i === demo.steps.length - 1 || busy}
                      onClick={() => moveStep(i, i + 1)}
                    >
                      ↓
                    </button>
                    <button
                      type="button"
                      className="icon-button"
                      aria-label={`Delete step ${s.number}`}
                      disabled={busy}
                      onClick={() => act(() => demosApi.removeStep(demo.id, s.id), `Step ${s.number} deleted`)}
                    >
                      ×
                    </button>
                  </span>
                )}
              </li>
            ))}
          </ol>
          {readOnly ? null : (
            <div className="step-add">
              <Button size="sm" icon={<PlusIcon />} onClick={() => act(async () => setStepId((await demosApi.addStep(demo.id, { title: 'New step' })).id))}>
                Add step
              </Button>
              <Button size="sm" onClick={() => upload.current?.click()}>
                Upload screenshot
              </Button>
              <input ref={upload} type="file" accept={IMAGE_TYPES} hidden aria-label="Screenshot for a new step" onChange={(e) => pick(e, (f) => demosApi.addImageStep(demo.id, f))} />
            </div>
          )}
        </nav>

        <main className="editor-stage">
          {step ? (
            <>
              <StepCanvas
                step={step}
                hotspots={stepHotspots}
                selectedId={hotspotId}
                readOnly={readOnly}
                themeColor={demo.configuration.theme_color}
                onSelect={setHotspotId}
                onChange={saveBox}
              />
              {readOnly ? null : (
                <div className="stage-tools">
                  <Button
                    size="sm"
                    icon={<PlusIcon />}
                    onClick={() =>
                      act(async () => {
                        const created = await demosApi.addHotspot(demo.id, step.id, { x: 0.4, y: 0.4, width: 0.2, height: 0.1, label: 'Click here' });
                        setHotspotId(created.id);
                      })
                    }
                  >
                    Add hotspot
                  </Button>
                  <Button size="sm" onClick={() => replace.current?.click()}>
                    {step.image_url ? 'Replace image' : 'Upload image'}
                  </Button>
                  <input ref={replace} type="file" accept={IMAGE_TYPES} hidden aria-label="Image for this step" onChange={(e) => pick(e, (f) => demosApi.uploadImage(demo.id, step.id, f))} />
                </div>
              )}
            </>
          ) : (
            <div className="canvas-empty stage-empty">This demo has no steps yet. Add one, or upload a screenshot.</div>
          )}
        </main>

        <aside className="editor-inspector">
          {hotspot ? (
            <HotspotPanel
              hotspot={hotspot}
              steps={demo.steps}
              readOnly={readOnly}
              onSave={(patch) => act(() => demosApi.updateHotspot(demo.id, hotspot.step_id, hotspot.id, patch))}
              onDelete={() => act(() => demosApi.removeHotspot(demo.id, hotspot.step_id, hotspot.id), 'Hotspot deleted')}
            />
          ) : null}
          {step ? <StepPanel step={step} readOnly={readOnly} onSave={(patch) => act(() => demosApi.updateStep(demo.id, step.id, patch), 'Step saved')} /> : null}
          <ConfigurationPanel
            configuration={demo.configuration}
            readOnly={readOnly}
            onSave={(patch) => act(() => demosApi.update(demo.id, { configuration: patch }), 'Settings saved')}
          />
        </aside>
      </div>

      {previewing ? <DemoPreview demo={demo} onClose={() => setPreviewing(false)} /> : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete ${demo.title}?`}
          confirmLabel="Delete demo"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await demosApi.remove(demo.id);
            notify(`${demo.title} was deleted`);
            navigate('/demos');
          }}
        >
          <p>Its steps, images and share links are deleted for good. Viewers with a link will no longer see it.</p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
