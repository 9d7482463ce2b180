import { useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router';
import { demosApi } from '../../api/demos.api';
import type { DemoDetail, Hotspot } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { PlusIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';
import { DemoPreview } from './demo-preview';
import { ConfigurationPanel, HotspotPanel, StepPanel } from './editor-panels';
import { DeleteDemoDialog, EditorHeader } from './editor-header';
import { GenerationProgress } from './generation-progress';
import { generationFailed } from './demo-status';
import { type Box, StepCanvas } from './step-canvas';
import { IMAGE_TYPES, pickedFile, StepList } from './step-list';
import { useDemoChange } from './use-demo-change';

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

/** Steps on the left, the selected step on the stage, its hotspot, text and the demo's settings on the right. */
function Editor({ demo, reload }: { demo: DemoDetail; reload(): Promise<void> }) {
  const readOnly = !useCan()('demos.write');
  const { busy, act } = useDemoChange(reload);
  const [stepId, setStepId] = useState<string | null>(demo.steps[0]?.id ?? null);
  const [hotspotId, setHotspotId] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const replace = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!demo.steps.some((s) => s.id === stepId)) setStepId(demo.steps[0]?.id ?? null);
  }, [demo.steps, stepId]);

  const step = demo.steps.find((s) => s.id === stepId) ?? null;
  const stepHotspots = step ? demo.hotspots.filter((h) => h.step_id === step.id) : [];
  const hotspot = stepHotspots.find((h) => h.id === hotspotId) ?? null;

  // A box moved or resized by hand is where the author wants it: on a snapshot step the hotspot stops
  // following its element (selector), or the player would put it back on the element.
  const saveBox = (h: Hotspot, box: Box) => act(() => demosApi.updateHotspot(demo.id, h.step_id, h.id, h.selector ? { ...box, selector: null } : box));

  return (
    <div className="editor">
      <EditorHeader demo={demo} readOnly={readOnly} busy={busy} act={act} onPreview={() => setPreviewing(true)} onDelete={() => setDeleting(true)} reload={reload} />

      {generationFailed(demo) ? (
        <Alert tone="warning" title="Generation did not work">
          {demo.generation.error} You can add steps by hand or regenerate.
        </Alert>
      ) : null}

      <div className="editor-body">
        <StepList
          demo={demo}
          selectedId={stepId}
          onSelect={(id) => {
            setStepId(id);
            setHotspotId(null);
          }}
          onAdded={setStepId}
          readOnly={readOnly}
          busy={busy}
          act={act}
        />

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
      {deleting ? <DeleteDemoDialog demo={demo} onClose={() => setDeleting(false)} /> : null}
    </div>
  );
}
