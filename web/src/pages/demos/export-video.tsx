import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { type Render, type RenderFormat, type RenderPace, rendersApi } from '../../api/renders.api';
import type { DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { SelectField } from '../../components/field';
import { useCan } from '../../session/use-can';
import '../../styles/export-video.css';

/** Sizes offered; a GIF stops at 1280×720 (the API's limit). */
const SIZES = [
  { key: '1280x720', label: '1280 × 720 (HD)', width: 1280, height: 720, gif: true },
  { key: '1920x1080', label: '1920 × 1080 (Full HD)', width: 1920, height: 1080, gif: false },
  { key: '800x450', label: '800 × 450 (small)', width: 800, height: 450, gif: true },
  { key: '1080x1080', label: '1080 × 1080 (square)', width: 1080, height: 1080, gif: false },
  { key: '390x700', label: '390 × 700 (phone)', width: 390, height: 700, gif: true },
] as const;
const PACES: Record<RenderPace, { label: string; ms: number }> = {
  slow: { label: 'Slow: 5 s a step', ms: 5000 },
  normal: { label: 'Normal: 3 s a step', ms: 3000 },
  fast: { label: 'Fast: 1.8 s a step', ms: 1800 },
};
const STATUS: Record<Render['status'], { label: string; tone: BadgeTone }> = {
  queued: { label: 'Queued', tone: 'neutral' },
  running: { label: 'Rendering', tone: 'accent' },
  succeeded: { label: 'Ready', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'warning' },
};

const active = (r: Render) => r.status === 'queued' || r.status === 'running';
const seconds = (ms: number) => (ms >= 60_000 ? `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s` : `${Math.round(ms / 100) / 10} s`);
const megabytes = (bytes: number) => (bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1000))} KB`);

/**
 * The Export dialog's "Video" section: an MP4 or GIF of the published version (format, size, pace), made in
 * the background; its progress, cancel, and the download once ready. docs/video.md.
 */
export function ExportVideoSection({ demo }: { demo: DemoDetail }) {
  const can = useCan();
  const mayRender = can('demos.write');
  const published = demo.published_at !== null;
  const [format, setFormat] = useState<RenderFormat>('mp4');
  const [size, setSize] = useState<string>('1280x720');
  const [pace, setPace] = useState<RenderPace>('normal');
  const [renders, setRenders] = useState<Render[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);

  const load = useCallback(async () => {
    try {
      setRenders((await rendersApi.list(demo.id)).rows);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not load the renders.');
    }
  }, [demo.id]);

  useEffect(() => {
    void load();
  }, [load]);

  // Follows the renders in progress, once a second, until none is.
  const running = renders?.some(active) ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => void load(), 1000);
    return () => clearInterval(timer);
  }, [running, load]);

  const sizes = SIZES.filter((s) => format === 'mp4' || s.gif);
  const chosen = sizes.find((s) => s.key === size) ?? sizes[0]!;
  const length = demo.step_count * PACES[pace].ms;

  async function start() {
    setError(null);
    setStarting(true);
    try {
      const made = await rendersApi.create(demo.id, { format, width: chosen.width, height: chosen.height, pace });
      setRenders((rows) => [made, ...(rows ?? [])]);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not start the render.');
    } finally {
      setStarting(false);
    }
  }

  async function remove(render: Render) {
    setError(null);
    try {
      await rendersApi.remove(demo.id, render.id);
      await load();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not change the render.');
    }
  }

  return (
    <section className="export-video" aria-labelledby="export-video-title">
      <h3 id="export-video-title" className="export-video-title">
        Video or GIF
      </h3>
      <p className="muted export-video-text">
        The published version, played step by step: a cursor moves to each hotspot, which lights up, with the step’s text as a caption.
      </p>
      {!published ? (
        <Alert tone="info">Publish this demo first: a video shows its published version.</Alert>
      ) : (
        <>
          <div className="export-video-options">
            <SelectField label="Format" value={format} onChange={(e) => setFormat(e.target.value as RenderFormat)} disabled={!mayRender}>
              <option value="mp4">MP4 video (H.264)</option>
              <option value="gif">Animated GIF</option>
            </SelectField>
            <SelectField label="Size" value={chosen.key} onChange={(e) => setSize(e.target.value)} disabled={!mayRender}>
              {sizes.map((s) => (
                <option key={s.key} value={s.key}>
                  {s.label}
                </option>
              ))}
            </SelectField>
            <SelectField label="Pace" value={pace} onChange={(e) => setPace(e.target.value as RenderPace)} disabled={!mayRender}>
              {(Object.keys(PACES) as RenderPace[]).map((p) => (
                <option key={p} value={p}>
                  {PACES[p].label}
                </option>
              ))}
            </SelectField>
          </div>
          <div className="row row-wrap export-video-start">
            <Button variant="primary" onClick={() => void start()} loading={starting} disabled={!mayRender}>
              Render {format === 'mp4' ? 'video' : 'GIF'}
            </Button>
            <span className="muted">
              {demo.step_count} {demo.step_count === 1 ? 'step' : 'steps'}, {seconds(length)} long
            </span>
          </div>
        </>
      )}
      {error ? <Alert tone="danger">{error}</Alert> : null}
      {renders && renders.length > 0 ? (
        <ul className="export-video-list" aria-label="Renders">
          {renders.map((r) => (
            <RenderRow key={r.id} render={r} demoId={demo.id} mayChange={mayRender} onRemove={() => void remove(r)} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function RenderRow({ render: r, demoId, mayChange, onRemove }: { render: Render; demoId: string; mayChange: boolean; onRemove(): void }) {
  const status = STATUS[r.status];
  const percent = Math.round(r.progress * 100);
  return (
    <li className="export-video-item">
      <div className="export-video-item-main">
        <span className="export-video-item-what">
          {r.format.toUpperCase()} · {r.width} × {r.height} · {seconds(r.duration_ms)}
        </span>
        <Badge tone={status.tone}>{status.label}</Badge>
        {r.size_bytes ? <span className="muted">{megabytes(r.size_bytes)}</span> : null}
      </div>
      {active(r) ? (
        <div className="export-video-progress">
          <progress max={100} value={percent} aria-label={`Render progress, ${percent}%`} />
          <span className="muted">{percent}%</span>
        </div>
      ) : null}
      {r.status === 'failed' && r.error ? <p className="field-error">{r.error}</p> : null}
      <div className="row export-video-actions">
        {r.status === 'succeeded' && r.file_url ? (
          <a className="btn btn-secondary btn-sm" href={r.file_url} download={`${demoId}.${r.format}`}>
            Download
          </a>
        ) : null}
        {mayChange ? (
          <Button size="sm" variant="ghost" onClick={onRemove}>
            {active(r) ? 'Cancel' : 'Delete'}
          </Button>
        ) : null}
      </div>
    </li>
  );
}
