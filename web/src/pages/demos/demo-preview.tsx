import { useState } from 'react';
import { assetPath } from '../../api/demos.api';
import type { DemoDetail } from '../../api/types';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { SnapshotFrame } from './snapshot-frame';
import type { Box } from './canvas-box';

/** Plays the demo as a viewer would see it: click a hotspot (or Next) to move on, the end button last. */
export function DemoPreview({ demo, onClose }: { demo: DemoDetail; onClose(): void }) {
  const [index, setIndex] = useState(0);
  const [finished, setFinished] = useState(false);
  // Snapshot steps: hotspots with a selector sit on their elements, as in the player.
  const [placed, setPlaced] = useState<{ stepId: string; boxes: Record<string, Box> } | null>(null);
  const step = demo.steps[index];
  const config = demo.configuration;
  const hotspots = step ? demo.hotspots.filter((h) => h.step_id === step.id) : [];
  const next = () => (index + 1 < demo.steps.length ? setIndex(index + 1) : setFinished(true));

  return (
    <Dialog title={`Preview: ${demo.title}`} onClose={onClose} size="lg">
      <div className="preview" style={{ ['--theme' as string]: config.theme_color }}>
        {config.progress_bar && demo.steps.length > 0 ? (
          <div className="preview-progress" role="progressbar" aria-valuemin={0} aria-valuemax={demo.steps.length} aria-valuenow={finished ? demo.steps.length : index + 1}>
            <span style={{ width: `${((finished ? demo.steps.length : index + 1) / demo.steps.length) * 100}%` }} />
          </div>
        ) : null}
        {finished || !step ? (
          <div className="preview-end">
            <h3>That’s the tour</h3>
            {config.call_to_action ? (
              <a className="btn btn-primary" href={config.call_to_action.url} target="_blank" rel="noreferrer">
                {config.call_to_action.label}
              </a>
            ) : null}
            <Button
              onClick={() => {
                setIndex(0);
                setFinished(false);
              }}
            >
              Restart
            </Button>
          </div>
        ) : (
          <>
            <div className="canvas" style={{ aspectRatio: step.width && step.height ? `${step.width} / ${step.height}` : '16 / 10' }}>
              {step.image_url ? (
                <img className="canvas-image" src={assetPath(step.image_url)} alt={step.title} />
              ) : step.html_url ? (
                <SnapshotFrame
                  key={step.id}
                  url={step.html_url}
                  width={step.width ?? undefined}
                  height={step.height ?? undefined}
                  title={step.title}
                  hotspots={hotspots}
                  onPlaced={(boxes) => setPlaced({ stepId: step.id, boxes })}
                />
              ) : (
                <div className="canvas-empty" />
              )}
              {hotspots.map((h) => {
                const box = (h.selector && placed?.stepId === step.id && placed.boxes[h.id]) || h;
                return (
                <button
                  type="button"
                  key={h.id}
                  className="hotspot hotspot-live"
                  title={h.tooltip || h.label}
                  aria-label={h.label || 'Continue'}
                  style={{ left: `${box.x * 100}%`, top: `${box.y * 100}%`, width: `${box.width * 100}%`, height: `${box.height * 100}%` }}
                  onClick={() => {
                    if (h.action.type === 'goto' && typeof h.action.target === 'number') setIndex(h.action.target - 1);
                    else if (h.action.type === 'url' && typeof h.action.target === 'string') window.open(h.action.target, '_blank', 'noopener');
                    else next();
                  }}
                />
                );
              })}
            </div>
            <div className="preview-caption">
              <strong>{step.title}</strong>
              <p>{step.description}</p>
            </div>
            <div className="preview-nav">
              <Button size="sm" disabled={index === 0} onClick={() => setIndex(index - 1)}>
                Back
              </Button>
              <span className="muted">
                {index + 1} / {demo.steps.length}
              </span>
              <Button size="sm" variant="primary" onClick={next}>
                {index + 1 === demo.steps.length ? 'Finish' : 'Next'}
              </Button>
            </div>
          </>
        )}
      </div>
    </Dialog>
  );
}
