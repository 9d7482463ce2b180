import { useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { demosApi, type HotspotPatch, type RedactionsBody, type StepPatch } from '../../api/demos.api';
import { csrfToken } from '../../api/client';
import type { Chapter, DemoDetail, Hotspot, Step, StepKind } from '../../api/types';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';
import { type BlurDraft, blurBody, newBlurDraft } from './blur-layer';
import { BlurPanel } from './blur-panel';
import { PageEditor } from './page-edit';
import { DemoPreview } from './demo-preview';
import { FlowView } from './flow-view';
import { ConfigurationPanel, HotspotPanel, StepPanel } from './editor-panels';
import { DeleteDemoDialog, EditorHeader } from './editor-header';
import { GenerationFailedNotice, GenerationProgress } from './generation-progress';
import { generationFailed } from './demo-status';
import type { Box } from './canvas-box';
import { isTextTarget, StepCanvas } from './step-canvas';
import { IMAGE_TYPES, pickedFile, StepList } from './step-list';
import { StaleCheckDialog } from './stale-check-dialog';
import { StaleStepNotice } from './stale-step-notice';
import { useStaleCheck } from './use-stale-check';
import { type DemoChange, useDemoChange } from './use-demo-change';
import { useHistory } from './use-history';
import { FormBuilder } from './form-builder';
import { chaptersOf, DEFAULT_FORM, newStepOf, problemsOf, storyOf, tooltipHtmlOf } from './story';
import { ButtonsPanel } from './story-buttons';
import { ChaptersPanel, StoryProblems } from './story-panels';
import { StoryPreview } from './story-preview';
import '../../styles/story-editor.css';
import '../../styles/editor.css';

const POLL_MS = 1000;

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

const UNDO_DELETE_MS = 8000;

const withoutLastMark = (d: BlurDraft | null) => (d ? { ...d, items: d.items.slice(0, -1), selected: null } : d);

/** "screenshot and page snapshot": what a blur request changes, in words. */
const blurredParts = (body: RedactionsBody) =>
  [body.regions?.length ? 'screenshot' : null, body.selectors?.length ? 'page snapshot' : null].filter(Boolean).join(' and ');
const ZOOMS = [0.25, 0.33, 0.5, 0.67, 0.75, 1, 1.25, 1.5, 2];
const PANELS_KEY = 'demoshare:editor-panels';

/** Which side panels are shown; remembered in this browser. */
function usePanels() {
  const [panels, setPanels] = useState<{ steps: boolean; settings: boolean }>(() => {
    try {
      return { steps: true, settings: true, ...JSON.parse(localStorage.getItem(PANELS_KEY) ?? '{}') };
    } catch {
      return { steps: true, settings: true };
    }
  });
  const toggle = (panel: 'steps' | 'settings') =>
    setPanels((p) => {
      const next = { ...p, [panel]: !p[panel] };
      try {
        localStorage.setItem(PANELS_KEY, JSON.stringify(next));
      } catch {
        // Not remembered then; the toggle still works on this page.
      }
      return next;
    });
  return { panels, toggle };
}

/** Steps on the left, the selected step on the stage, its hotspot, text and the demo's settings on the right. */
function Editor({ demo, reload }: { demo: DemoDetail; reload(): Promise<void> }) {
  const readOnly = !useCan()('demos.write');
  const notify = useToast();
  const { busy, act: change, settled, saveState } = useDemoChange(reload);
  const [stepId, setStepId] = useState<string | null>(demo.steps[0]?.id ?? null);
  const [hotspotId, setHotspotId] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const staleCheck = useStaleCheck(demo.id, reload);
  const [checking, setChecking] = useState(false);
  // The flow view (flow-view.tsx) takes the stage's place; the step's canvas stays mounted underneath.
  const [flow, setFlow] = useState(false);
  // "Edit page" (page-edit.tsx) on the HTML step whose id it holds: another step leaves it.
  const [pageEditStep, setPageEditStep] = useState<string | null>(null);
  const { panels, toggle } = usePanels();
  const [zoom, setZoom] = useState<'fit' | number>('fit');
  const viewport = useRef<HTMLDivElement>(null);
  const replace = useRef<HTMLInputElement>(null);

  // A deleted step is hidden at once and deleted for real when its Undo toast goes (or before any other
  // change, or when the editor is left): Undo then only has to show it again, image and hotspots intact.
  const [hidden, setHidden] = useState<string | null>(null);
  const pendingDelete = useRef<{ stepId: string; done: boolean } | null>(null);
  const flushDelete = async () => {
    const pending = pendingDelete.current;
    if (!pending || pending.done) return;
    pending.done = true;
    pendingDelete.current = null;
    await change(() => demosApi.removeStep(demo.id, pending.stepId));
    setHidden((h) => (h === pending.stepId ? null : h));
  };
  const latestFlush = useRef(flushDelete);
  latestFlush.current = flushDelete;
  useEffect(() => {
    const leave = () => {
      const pending = pendingDelete.current;
      if (!pending || pending.done) return;
      pending.done = true;
      void fetch(`/v1/demos/${demo.id}/steps/${pending.stepId}`, {
        method: 'DELETE',
        keepalive: true,
        credentials: 'same-origin',
        headers: { 'x-csrf-token': csrfToken() },
      });
    };
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      void latestFlush.current();
    };
  }, [demo.id]);

  /** Every change of the editor: a pending step deletion goes first, so the two cannot cross. */
  const act: DemoChange = async (work, done) => {
    await flushDelete();
    return change(work, done);
  };
  const history = useHistory((work) => act(work));
  /** Publish goes after the saves on their way (a field left by clicking Publish starts one): false if one failed. */
  const afterSaves = async () => {
    await history.settled();
    return settled();
  };

  const steps = demo.steps.filter((s) => s.id !== hidden);
  const shown = { ...demo, steps };

  useEffect(() => {
    if (!steps.some((s) => s.id === stepId)) setStepId(steps[0]?.id ?? null);
  }, [steps, stepId]);

  const step = steps.find((s) => s.id === stepId) ?? null;
  const stepKind = step ? storyOf(step).kind : 'page';
  const stepHotspots = step ? demo.hotspots.filter((h) => h.step_id === step.id) : [];
  const hotspot = stepHotspots.find((h) => h.id === hotspotId) ?? null;

  // The blur tool: marks on the shown step, kept on the page until applied (another step drops them).
  const [blurState, setBlur] = useState<BlurDraft | null>(null);
  const [confirmingBlur, setConfirmingBlur] = useState(false);
  const blur = blurState && step && blurState.stepId === step.id ? blurState : null;
  // Marks belong to their step: going to another one drops them (coming back starts afresh).
  useEffect(() => setBlur((d) => (d && d.stepId !== stepId ? null : d)), [stepId]);
  const canBlur = !readOnly && !!step && (!!step.image_url || !!step.html_url);
  const undoBlurMark = () => setBlur(withoutLastMark);
  // While the tool is open, Ctrl/Cmd+Z takes back the last mark, not the last saved edit.
  const blurring = blur !== null;
  useEffect(() => {
    if (!blurring) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.shiftKey || event.altKey || event.key.toLowerCase() !== 'z' || isTextTarget(event.target)) return;
      event.preventDefault();
      event.stopPropagation();
      setBlur(withoutLastMark);
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [blurring]);
  const applyBlur = async () => {
    if (!blur || !step) return;
    const done = await act(() => demosApi.redact(demo.id, step.id, blurBody(blur, step)), `Step ${step.number} blurred. The original is deleted.`);
    setConfirmingBlur(false);
    if (done) setBlur(null);
  };

  // A box moved or resized by hand is where the author wants it: on a snapshot step the hotspot stops
  // following its element (selector), or the player would put it back on the element.
  const saveBox = (h: Hotspot, box: Box) => {
    const before = { x: h.x, y: h.y, width: h.width, height: h.height, selector: h.selector };
    const after = h.selector ? { ...box, selector: null } : box;
    const apply = (patch: Partial<Hotspot>) => () => demosApi.updateHotspot(demo.id, h.step_id, h.id, patch);
    void history.perform({ undo: apply(before), redo: apply(after) });
  };

  const saveStepText = (s: Step, patch: { title?: string; description?: string }) => {
    const before = { ...(patch.title !== undefined ? { title: s.title } : {}), ...(patch.description !== undefined ? { description: s.description } : {}) };
    const apply = (p: typeof patch) => () => demosApi.updateStep(demo.id, s.id, p);
    void history.perform({ undo: apply(before), redo: apply(patch) });
  };

  const reorder = (ids: string[]) => {
    const before = demo.steps.map((s) => s.id);
    const apply = (order: string[]) => () => demosApi.replaceSteps(demo.id, order);
    void history.perform({ undo: apply(before), redo: apply(ids) });
  };

  /** A change of a step's story fields (kind, chapter, buttons, form, rich text), undoable. */
  const saveStory = (s: Step, patch: StepPatch) => {
    const story = storyOf(s);
    const current: Record<string, unknown> = { ...story, title: s.title, description: s.description };
    const before = Object.fromEntries(Object.keys(patch).map((k) => [k, current[k]])) as StepPatch;
    // Rich text given back replaces the plain text too: undoing it brings the plain text back.
    if ('description_html' in patch && !('description' in patch)) before.description = s.description;
    const apply = (p: StepPatch) => () => demosApi.updateStep(demo.id, s.id, p);
    void history.perform({ undo: apply(before), redo: apply(patch) });
  };
  const saveHotspot = (h: Hotspot, patch: HotspotPatch) => {
    const current: Record<string, unknown> = { ...h, tooltip_html: tooltipHtmlOf(h) };
    const before = Object.fromEntries(Object.keys(patch).map((k) => [k, current[k]])) as HotspotPatch;
    if ('tooltip_html' in patch && !('tooltip' in patch)) before.tooltip = h.tooltip;
    const apply = (p: HotspotPatch) => () => demosApi.updateHotspot(demo.id, h.step_id, h.id, p);
    void history.perform({ undo: apply(before), redo: apply(patch) });
  };
  const chapters = chaptersOf(demo);
  const problems = problemsOf(demo);
  const renameChapter = (c: Chapter, title: string) => {
    const apply = (t: string) => () => demosApi.updateChapter(demo.id, c.id, { title: t });
    void history.perform({ undo: apply(c.title), redo: apply(title) });
  };
  /**
   * A new step of `kind`: a cover first, an end screen last, another after the selected step (at the end
   * when none is); a page goes into the selected step's chapter.
   */
  const addStep = async (kind: StepKind) => {
    let created: Step | null = null;
    await act(async () => {
      const at = step ? steps.findIndex((s) => s.id === step.id) : -1;
      const number = kind === 'cover' ? 1 : kind === 'end' ? undefined : at >= 0 ? (steps[at + 1]?.number ?? undefined) : undefined;
      const chapterId = step && kind === 'page' ? storyOf(step).chapter_id : null;
      created = await demosApi.addStep(demo.id, {
        ...newStepOf(kind, chapters, demo.title),
        ...(chapterId ? { chapter_id: chapterId } : {}),
        ...(number ? { number } : {}),
      });
    });
    // Selected once the reloaded demo has it (before, the editor would fall back to the first step).
    if (created) {
      setStepId((created as Step).id);
      setHotspotId(null);
    }
  };

  const deleteStep = async (s: Step) => {
    await flushDelete();
    pendingDelete.current = { stepId: s.id, done: false };
    setHidden(s.id);
    notify(`Step ${s.number} deleted`, 'success', {
      lifetimeMs: UNDO_DELETE_MS,
      action: {
        label: 'Undo',
        onAction: () => {
          if (pendingDelete.current?.stepId !== s.id || pendingDelete.current.done) return;
          pendingDelete.current = null;
          setHidden(null);
          setStepId(s.id);
        },
      },
      onExpire: () => {
        if (pendingDelete.current?.stepId === s.id) void flushDelete();
      },
    });
  };

  // Zoom: "fit" follows the stage's width; a number is the scale of the step's own pixel width.
  const natural = step?.width ?? 1280;
  const [stageWidth, setStageWidth] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the viewport comes and goes with the step
  useEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setStageWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, [step === null]);
  const scale = zoom === 'fit' ? null : zoom;
  const shownScale = scale ?? (stageWidth ? stageWidth / natural : 1);
  const stepZoom = (dir: 1 | -1) => {
    const current = shownScale;
    const next = dir > 0 ? ZOOMS.find((z) => z > current + 0.001) : [...ZOOMS].reverse().find((z) => z < current - 0.001);
    if (next) setZoom(next);
  };

  return (
    <div className="editor">
      <EditorHeader
        demo={demo}
        readOnly={readOnly}
        act={act}
        afterSaves={afterSaves}
        saveState={saveState}
        onPreview={() => setPreviewing(true)}
        onDelete={() => setDeleting(true)}
        reload={reload}
        onCheckForChanges={() => setChecking(true)}
      />
      {checking ? <StaleCheckDialog demo={demo} state={staleCheck} readOnly={readOnly} onClose={() => setChecking(false)} /> : null}

      {generationFailed(demo) ? <GenerationFailedNotice demo={demo} reload={reload} /> : null}

      <div className={`editor-body${panels.steps ? '' : ' editor-steps-hidden'}${panels.settings || blur ? '' : ' editor-settings-hidden'}`}>
        {panels.steps ? (
          <StepList
            demo={shown}
            selectedId={stepId}
            onSelect={(id) => {
              setStepId(id);
              setHotspotId(null);
            }}
            onAdded={setStepId}
            onAddKind={(kind) => void addStep(kind)}
            chapters={chapters}
            problemSteps={new Set(problems.map((p) => p.step_number).filter((n): n is number => n !== null))}
            staleSteps={staleCheck.stale}
            readOnly={readOnly}
            busy={busy}
            act={act}
            onReorder={reorder}
            onDelete={(s) => void deleteStep(s)}
          />
        ) : null}

        <main className={`editor-stage${flow ? ' editor-flow' : ''}`}>
          <div className="canvas-toolbar" role="toolbar" aria-label="Canvas">
            <Button size="sm" variant="ghost" aria-label={panels.steps ? 'Hide steps' : 'Show steps'} title={panels.steps ? 'Hide the step list' : 'Show the step list'} onClick={() => toggle('steps')}>
              {panels.steps ? '◀ Steps' : '▶ Steps'}
            </Button>
            {readOnly ? null : (
              <>
                <Button size="sm" variant="ghost" aria-label="Undo" disabled={!history.canUndo || !!blur} onClick={() => void history.undo()} title="Undo (Ctrl+Z)">
                  ↶
                </Button>
                <Button size="sm" variant="ghost" aria-label="Redo" disabled={!history.canRedo || !!blur} onClick={() => void history.redo()} title="Redo (Ctrl+Shift+Z)">
                  ↷
                </Button>
              </>
            )}
            <Button size="sm" variant={flow ? 'primary' : 'ghost'} aria-pressed={flow} title="The story as a graph: steps and where each action leads" onClick={() => setFlow(!flow)}>
              Flow
            </Button>
            <span className="spacer" />
            {/* A cover, menu, form or end screen is a preview that fits the stage: nothing to zoom. */}
            {stepKind === 'page' ? (
              <>
                <Button size="sm" variant="ghost" aria-label="Zoom out" onClick={() => stepZoom(-1)}>
                  −
                </Button>
                <span className="zoom-level" aria-live="polite">
                  {Math.round(shownScale * 100)}%
                </span>
                <Button size="sm" variant="ghost" aria-label="Zoom in" onClick={() => stepZoom(1)}>
                  +
                </Button>
                <Button size="sm" variant="ghost" aria-pressed={zoom === 'fit'} aria-label="Fit to the stage" onClick={() => setZoom('fit')}>
                  Fit
                </Button>
                <Button size="sm" variant="ghost" aria-pressed={zoom === 1} aria-label="Zoom to 100%" onClick={() => setZoom(1)}>
                  1:1
                </Button>
              </>
            ) : null}
            <span className="spacer" />
            <Button
              size="sm"
              variant="ghost"
              aria-label={panels.settings ? 'Hide settings' : 'Show settings'}
              title={panels.settings ? 'Hide the settings panels' : 'Show the settings panels'}
              onClick={() => toggle('settings')}
            >
              {panels.settings ? 'Settings ▶' : 'Settings ◀'}
            </Button>
          </div>
          {flow ? (
            <FlowView
              demo={shown}
              readOnly={readOnly}
              perform={history.perform}
              onOpenStep={(id) => {
                setStepId(id);
                setHotspotId(null);
                setFlow(false);
              }}
            />
          ) : null}
          {step && stepKind !== 'page' ? (
            <div className="canvas-viewport" ref={viewport}>
              <StoryPreview step={step} story={storyOf(step)} chapters={chapters} themeColor={demo.configuration.theme_color} />
            </div>
          ) : step ? (
            <>
              {staleCheck.stale.get(step.id) ? <StaleStepNotice result={staleCheck.stale.get(step.id)!} captureUrl={staleCheck.captureUrl(step.id)} readOnly={readOnly} onReplace={staleCheck.replace} /> : null}
              <div className="canvas-viewport" ref={viewport}>
                {pageEditStep === step.id && step.html_url && !step.image_url ? (
                  <PageEditor demoId={demo.id} step={step} perform={history.perform} onClose={() => setPageEditStep(null)} />
                ) : (
                <StepCanvas
                  step={step}
                  hotspots={stepHotspots}
                  selectedId={hotspotId}
                  readOnly={readOnly}
                  themeColor={demo.configuration.theme_color}
                  width={scale ? Math.round(natural * scale) : undefined}
                  onSelect={setHotspotId}
                  onChange={saveBox}
                  blur={blur ? { draft: blur, onChange: setBlur } : undefined}
                />
                )}
              </div>
              {readOnly ? null : (
                <div className="stage-tools">
                  <Button
                    size="sm"
                    icon={<PlusIcon />}
                    disabled={!!blur}
                    onClick={() =>
                      act(async () => {
                        const created = await demosApi.addHotspot(demo.id, step.id, { x: 0.4, y: 0.4, width: 0.2, height: 0.1, label: 'Click here' });
                        setHotspotId(created.id);
                      })
                    }
                  >
                    Add hotspot
                  </Button>
                  <Button size="sm" disabled={!!blur} onClick={() => replace.current?.click()}>
                    {step.image_url ? 'Replace image' : 'Upload image'}
                  </Button>
                  {canBlur ? (
                    <Button
                      size="sm"
                      variant={blur ? 'primary' : 'secondary'}
                      aria-pressed={!!blur}
                      title="Hide names, e-mails or numbers: blurred for good in the stored image and page snapshot"
                      onClick={() => {
                        setHotspotId(null);
                        setBlur(blur ? null : newBlurDraft(step));
                      }}
                    >
                      Blur
                    </Button>
                  ) : null}
                  {step.html_url && !step.image_url ? (
                    <Button
                      size="sm"
                      variant={pageEditStep === step.id ? 'primary' : 'secondary'}
                      aria-pressed={pageEditStep === step.id}
                      disabled={!!blur}
                      title="Change the captured page's text, hide elements, replace images"
                      onClick={() => {
                        setHotspotId(null);
                        setPageEditStep(pageEditStep === step.id ? null : step.id);
                      }}
                    >
                      Edit page
                    </Button>
                  ) : null}
                  <input
                    ref={replace}
                    type="file"
                    accept={IMAGE_TYPES}
                    hidden
                    aria-label="Image for this step"
                    onChange={(e) => {
                      const file = pickedFile(e);
                      if (file) void act(() => demosApi.uploadImage(demo.id, step.id, file), 'Image uploaded');
                    }}
                  />
                </div>
              )}
            </>
          ) : (
            <div className="canvas-empty stage-empty">This demo has no steps yet.{readOnly ? null : ' Add one, or upload a screenshot.'}</div>
          )}
        </main>

        {panels.settings || blur ? (
          <aside className="editor-inspector">
            {blur && step ? (
              <BlurPanel
                step={step}
                draft={blur}
                busy={busy}
                onChange={setBlur}
                onUndo={undoBlurMark}
                onApply={() => setConfirmingBlur(true)}
                onCancel={() => setBlur(null)}
              />
            ) : null}
            {blur ? null : (
              <StoryProblems
                problems={problems}
                onShow={(n) => {
                  const target = steps.find((s) => s.number === n);
                  if (target) {
                    setStepId(target.id);
                    setHotspotId(null);
                  }
                }}
              />
            )}
            {blur ? null : hotspot ? (
              <HotspotPanel
                key={hotspot.id}
                hotspot={hotspot}
                demoId={demo.id}
                steps={steps}
                chapters={chapters}
                allowSubmit={stepKind === 'form'}
                readOnly={readOnly}
                onSave={(patch) => saveHotspot(hotspot, patch)}
                onDelete={() => act(() => demosApi.removeHotspot(demo.id, hotspot.step_id, hotspot.id), 'Hotspot deleted')}
              />
            ) : null}
            {step ? (
              <StepPanel
                key={step.id}
                step={step}
                demoId={demo.id}
                readOnly={readOnly}
                chapters={chapters}
                onSave={(patch) => saveStepText(step, patch)}
                onSaveStory={(patch) => saveStory(step, patch)}
              />
            ) : null}
            {step && (stepKind === 'cover' || stepKind === 'chapter_menu' || stepKind === 'end') ? (
              <ButtonsPanel
                key={`buttons:${step.id}`}
                kind={stepKind}
                buttons={storyOf(step).content.buttons}
                steps={steps}
                chapters={chapters}
                readOnly={readOnly}
                busy={busy}
                onChange={(buttons) => saveStory(step, { content: { ...storyOf(step).content, buttons } })}
              />
            ) : null}
            {step && stepKind === 'form' ? (
              <FormBuilder
                key={`form:${step.id}`}
                form={storyOf(step).content.form ?? DEFAULT_FORM}
                readOnly={readOnly}
                busy={busy}
                onChange={(form) => saveStory(step, { content: { ...storyOf(step).content, form } })}
              />
            ) : null}
            {blur ? null : (
              <ChaptersPanel
                chapters={chapters}
                readOnly={readOnly}
                onAdd={(title) => act(() => demosApi.addChapter(demo.id, { title }), `Chapter “${title}” added`)}
                onRename={renameChapter}
                onDelete={(c) => act(() => demosApi.removeChapter(demo.id, c.id), `Chapter “${c.title}” deleted`)}
              />
            )}
            <ConfigurationPanel configuration={demo.configuration} readOnly={readOnly} onSave={(patch) => act(() => demosApi.update(demo.id, { configuration: patch }))} />
          </aside>
        ) : null}
      </div>

      {confirmingBlur && blur && step ? (
        <ConfirmDialog
          title="Blur for good?"
          confirmLabel="Apply blur"
          danger
          onClose={() => setConfirmingBlur(false)}
          onConfirm={applyBlur}
        >
          <p>
            What you marked is blurred in the stored {blurredParts(blurBody(blur, step))} of step {step.number}. The original is deleted, also from
            published versions and the thumbnail: this cannot be undone.
          </p>
        </ConfirmDialog>
      ) : null}
      {previewing ? <DemoPreview demo={demo} onClose={() => setPreviewing(false)} /> : null}
      {deleting ? <DeleteDemoDialog demo={demo} onClose={() => setDeleting(false)} /> : null}
    </div>
  );
}
