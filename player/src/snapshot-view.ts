import { h } from './dom';
import { type FractionBox, placeOnElements } from './snapshot-layout';
import { fillTextNodes, type Variables } from './variables';
import type { Step } from './wire';

const SNAPSHOT_SIZE = { width: 1280, height: 800 };

interface ShownSnapshot {
  frame: HTMLIFrameElement;
  step: Step;
  width: number;
  height: number;
}

/**
 * Steps captured as HTML: the snapshot in a script-less frame, laid out at the capture's size and scaled
 * to the stage. `assets` fetches a gated snapshot (with the session header where the cookie is not sent).
 */
export function createSnapshotView(assets: { assetText(url: string): Promise<string | null> } | undefined) {
  const texts = new Map<string, Promise<string | null>>();
  let shown: ShownSnapshot | null = null;

  function text(url: string): Promise<string | null> {
    let pending = texts.get(url);
    if (!pending) {
      pending = assets?.assetText(url) ?? Promise.resolve(null);
      texts.set(url, pending);
      // A failure is not kept: the next visit to the step tries again.
      void pending.then((html) => html === null && texts.delete(url));
    }
    return pending;
  }

  /**
   * The frame for `step` (which has an `html_url`). Once its document is in, `place` gets, per hotspot,
   * the box of the element its selector finds (or null), then `done` is called; a step left before
   * then places nothing.
   */
  function show(step: Step, title: string, done: () => void, place: (boxes: Array<FractionBox | null>) => void, vars: Variables = {}): HTMLElement {
    const width = step.width ?? SNAPSHOT_SIZE.width;
    const height = step.height ?? SNAPSHOT_SIZE.height;
    // Never allow-scripts: the captured page runs no code (its CSP, inherited through srcdoc, and the
    // sanitiser say the same). allow-same-origin without scripts lets the player, and only the player,
    // read where the page's elements are, to put the hotspots on them. pointer-events are off so its
    // links cannot navigate the frame; scrolling="no": it shows the capture's first screen, or where
    // the player scrolls it.
    const frame = h('iframe', {
      class: 'ds-snapshot',
      sandbox: 'allow-same-origin',
      title: `Page snapshot: ${title}`,
      tabindex: '-1',
      scrolling: 'no',
      referrerpolicy: 'no-referrer',
      style: `width:${width}px;height:${height}px`,
    });
    const current: ShownSnapshot = { frame, step, width, height };
    shown = current;
    // srcdoc rather than src: the snapshot's address is gated, and a frame on another site gets no
    // cookie; a document of our own origin is also one whose elements the player can find.
    void text(step.html_url as string).then((html) => {
      if (shown !== current) return;
      if (html === null) return done();
      const loaded = () => {
        // Not the frame's initial about:blank, which may report its load late.
        if (frame.contentDocument && frame.contentDocument.URL !== 'about:srcdoc') return;
        frame.removeEventListener('load', loaded);
        // The captured page's words are personalised too, text node by text node (never as markup).
        if (frame.contentDocument?.body) fillTextNodes(frame.contentDocument.body, vars);
        if (shown === current) place(placeOnElements(frame, step.hotspots.map((spot) => spot.selector), width, height));
        done();
      };
      frame.addEventListener('load', loaded);
      frame.srcdoc = html;
    });
    return h('div', { class: 'ds-snapshot-box' }, frame);
  }

  return {
    show,
    /** Starts loading a step's snapshot ahead of time. */
    prefetch: text,
    /** The step now shown is not a snapshot. */
    clear() {
      shown = null;
    },
    /** Scales the frame to the stage's width. */
    fit(stageWidth: number) {
      if (shown) shown.frame.style.transform = `scale(${stageWidth / shown.width})`;
    },
  };
}

export type SnapshotView = ReturnType<typeof createSnapshotView>;
