import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { assetPath } from '../../api/demos.api';
import type { Hotspot } from '../../api/types';
import { placeOnElements } from '../../../../player/src/snapshot-layout';
import type { Box } from './canvas-box';

/** The size HTML snapshots are laid out at when the step does not say (the capture's viewport). */
export const SNAPSHOT_SIZE = { width: 1280, height: 800 };
/** Snapshots never change (their address is their asset id), so each is fetched once per page load. */
const texts = new Map<string, Promise<string | null>>();

function snapshotText(url: string): Promise<string | null> {
  let text = texts.get(url);
  if (!text) {
    const path = assetPath(url) ?? url;
    text = fetch(path, { credentials: 'same-origin', headers: { accept: 'text/html' } }).then(
      (response) => (response.ok ? response.text() : null),
      () => null,
    );
    texts.set(url, text);
    // A failure is not kept: the next render tries again.
    void text.then((html) => html === null && texts.delete(url));
  }
  return text;
}

type SnapshotState = { status: 'loading' } | { status: 'ready'; html: string } | { status: 'failed' };

function useSnapshotText(url: string): SnapshotState {
  const [state, setState] = useState<SnapshotState>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    setState({ status: 'loading' });
    void snapshotText(url).then((html) => {
      if (live) setState(html === null ? { status: 'failed' } : { status: 'ready', html });
    });
    return () => {
      live = false;
    };
  }, [url]);
  return state;
}

/** Where the player will put the hotspots that carry a selector: the player's own rules. */
function placeOnHotspots(frame: HTMLIFrameElement, hotspots: Hotspot[], width: number, height: number): Record<string, Box> {
  const boxes = placeOnElements(frame, hotspots.map((spot) => spot.selector), width, height);
  const round = (v: number) => Math.round(v * 10_000) / 10_000;
  const placed: Record<string, Box> = {};
  boxes.forEach((box, i) => {
    const spot = hotspots[i];
    if (box && spot) placed[spot.id] = { x: round(box.x), y: round(box.y), width: round(box.width), height: round(box.height) };
  });
  return placed;
}

/**
 * A step's HTML snapshot, laid out at the capture's size and scaled to the width of its box like an image.
 * The frame is sandboxed with allow-same-origin only — never allow-scripts — so the captured page runs
 * no code (its own CSP meta and the sanitiser say the same); same-origin only so that the editor can find
 * the elements hotspots point at. Pointer events are off: its links cannot navigate, and drags on the
 * hotspot overlay above it are not swallowed by the frame.
 */
export function SnapshotFrame({
  url,
  width = SNAPSHOT_SIZE.width,
  height = SNAPSHOT_SIZE.height,
  title,
  hotspots,
  onPlaced,
  onFrame,
  thumbnail = false,
}: {
  url: string;
  width?: number;
  height?: number;
  title: string;
  /** Hotspots to place on their elements (those with a selector); `onPlaced` gets their boxes. */
  hotspots?: Hotspot[];
  onPlaced?(placed: Record<string, Box>): void;
  /** Gets the frame once its document has loaded, and null when it goes (the blur tool picks elements in it). */
  onFrame?(frame: HTMLIFrameElement | null): void;
  thumbnail?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const frame = useRef<HTMLIFrameElement>(null);
  const [scale, setScale] = useState(0);
  const [loaded, setLoaded] = useState(false);
  const snapshot = useSnapshotText(url);
  const html = snapshot.status === 'ready' ? snapshot.html : null;

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setScale(el.clientWidth / width);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [width]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new document starts unloaded
  useEffect(() => setLoaded(false), [html]);

  // Which hotspots sit on elements changes when one is moved by hand (its selector is cleared).
  const placementKey = (hotspots ?? []).map((h) => `${h.id}:${h.selector ?? ''}`).join('|');
  const placedRef = useRef(onPlaced);
  placedRef.current = onPlaced;
  const hotspotsRef = useRef(hotspots);
  hotspotsRef.current = hotspots;
  // biome-ignore lint/correctness/useExhaustiveDependencies: placementKey stands for the hotspots' selectors
  useEffect(() => {
    const el = frame.current;
    if (!loaded || !el || !placedRef.current) return;
    placedRef.current(placeOnHotspots(el, hotspotsRef.current ?? [], width, height));
  }, [loaded, placementKey, width, height]);

  const frameRef = useRef(onFrame);
  frameRef.current = onFrame;
  useEffect(() => {
    frameRef.current?.(loaded ? frame.current : null);
  }, [loaded]);
  useEffect(() => () => frameRef.current?.(null), []);

  return (
    <div className={`snapshot-view${thumbnail ? ' snapshot-thumb' : ''}`} ref={box} aria-hidden={thumbnail || undefined}>
      {html !== null ? (
        <iframe
          ref={frame}
          className="snapshot-frame"
          title={`Page snapshot: ${title}`}
          sandbox="allow-same-origin"
          srcDoc={html}
          scrolling="no"
          tabIndex={-1}
          referrerPolicy="no-referrer"
          style={{ width, height, transform: `scale(${scale})`, visibility: loaded ? 'visible' : 'hidden' }}
          onLoad={(event) => {
            // Not the frame's initial about:blank, which may report its load late.
            const doc = event.currentTarget.contentDocument;
            if (doc && doc.URL !== 'about:srcdoc') return;
            setLoaded(true);
          }}
        />
      ) : null}
      {loaded ? null : (
        <div className="snapshot-placeholder">
          {snapshot.status === 'failed' ? (
            <span>The page snapshot could not be loaded.</span>
          ) : (
            <>
              <span className="snapshot-badge">HTML snapshot</span>
              {thumbnail ? null : <span>Loading the page…</span>}
            </>
          )}
        </div>
      )}
    </div>
  );
}
