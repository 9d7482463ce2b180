import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { assetPath } from '../../api/demos.api';
import type { Hotspot } from '../../api/types';
import type { Box } from './step-canvas';

/** The size HTML snapshots are laid out at when the step does not say (the capture's viewport). */
export const SNAPSHOT_SIZE = { width: 1280, height: 800 };
/** Around an element found in a snapshot, in the snapshot's pixels (as the player and generation pad). */
const PADDING = 6;
/** An element below the first screen is scrolled to this far from the top (as the player does). */
const SCROLL_MARGIN = 120;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

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

/**
 * Where the player will put the hotspots that carry a selector (snapshot steps: HTML capture has no
 * layout): on their element, padded, after scrolling the snapshot to the first one when it is below the
 * first screen. The same rules as player/src/player.ts, so the editor shows what viewers will see.
 */
function placeOnElements(frame: HTMLIFrameElement, hotspots: Hotspot[], width: number, height: number): Record<string, Box> {
  const doc = frame.contentDocument;
  const view = frame.contentWindow;
  const placed: Record<string, Box> = {};
  if (!doc || !view) return placed;
  view.scrollTo(0, 0);
  const elements = hotspots.map((spot) => {
    if (!spot.selector) return null;
    try {
      const el = doc.querySelector(spot.selector);
      const box = el?.getBoundingClientRect();
      return box && box.width > 0 && box.height > 0 ? el : null;
    } catch {
      return null; // not a selector this browser knows
    }
  });
  const first = elements.find((el) => el !== null);
  if (first) {
    const box = first.getBoundingClientRect();
    const top = box.top + view.scrollY;
    if (top + Math.min(box.height, height) > height) view.scrollTo(0, Math.max(0, top - SCROLL_MARGIN));
  }
  elements.forEach((el, i) => {
    const spot = hotspots[i];
    if (!el || !spot) return;
    const box = el.getBoundingClientRect();
    const left = clamp((box.left - PADDING) / width, 0, 1);
    const top = clamp((box.top - PADDING) / height, 0, 1);
    const right = clamp((box.right + PADDING) / width, 0, 1);
    const bottom = clamp((box.bottom + PADDING) / height, 0, 1);
    if (right - left <= 0 || bottom - top <= 0) return;
    const round = (v: number) => Math.round(v * 10_000) / 10_000;
    placed[spot.id] = { x: round(left), y: round(top), width: round(right - left), height: round(bottom - top) };
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
  thumbnail = false,
}: {
  url: string;
  width?: number;
  height?: number;
  title: string;
  /** Hotspots to place on their elements (those with a selector); `onPlaced` gets their boxes. */
  hotspots?: Hotspot[];
  onPlaced?(placed: Record<string, Box>): void;
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
    placedRef.current(placeOnElements(el, hotspotsRef.current ?? [], width, height));
  }, [loaded, placementKey, width, height]);

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
