import type { FetchedResource, RecordingView, StepDraft, StepTarget } from '../shared/messages';
import { BLUR_ATTRIBUTE, REDACTION_CSS } from '../shared/privacy';
import { actionableTarget, clickTitle, isTextEntry, labelOf, selectorOf, typeTitle } from './describe';
import { INDICATOR_TAG, Indicator, type IndicatorAction } from './indicator';
import { randomId, send } from './messaging';
import { freezeDocument, serializeFrozen } from './snapshot';

/**
 * The recorder in the page. It runs in every frame; a frame of another origin than the top page ignores
 * clicks (its content cannot be part of the top page's snapshot). Everything it records goes straight to the
 * background worker, which stores it before answering.
 */
declare global {
  interface Window {
    __demoshareRecorder?: boolean;
  }
}

/** The top window when this frame may read it (same origin), else null. */
function reachableTop(): Window | null {
  try {
    void window.top?.document;
    return window.top;
  } catch {
    return null;
  }
}

/**
 * Closed shadow roots too: only the extension can see them. Asked of custom elements only (where closed
 * roots live in practice): the call crosses into the browser, and asking it of every element of a large page
 * made the freeze, and so the click, several times slower.
 */
function shadowRootOf(el: Element): ShadowRoot | null {
  if (el.localName === INDICATOR_TAG) return null;
  if (el.shadowRoot || !el.localName.includes('-') || !(el instanceof HTMLElement)) return el.shadowRoot;
  try {
    return chrome.dom.openOrClosedShadowRoot(el) ?? null;
  } catch {
    return el.shadowRoot;
  }
}

function boot(): void {
  if (window.__demoshareRecorder) return;
  window.__demoshareRecorder = true;
  const top = reachableTop();
  if (!top) return;
  const isTop = top === window;

  let view: RecordingView = { recording: false, paused: false, steps: 0 };
  let picking = false;
  /** The screenshot asked for when the pointer went down, for the click that follows. */
  let pendingShot: string | null = null;
  let lastClick: { el: Element; at: number } | null = null;
  const indicator = isTop ? new Indicator(onIndicator) : null;
  const redactionStyle = document.createElement('style');
  redactionStyle.setAttribute('data-demoshare-ui', '');
  redactionStyle.textContent = REDACTION_CSS;
  /** Steps whose snapshot is still being serialised, with a fallback to send if the page goes away first. */
  const unfinished = new Map<string, () => string | null>();

  /**
   * Changes to the page since it loaded (DOM mutations, typing, scrolling), ours excepted: the worker does
   * not capture again a page that has not changed, which keeps captures within their rate limit.
   */
  let changes = 0;
  const ours = (node: Node) => node === redactionStyle || (indicator !== null && (node === indicator.host || indicator.host.contains(node)));
  const watcher = new MutationObserver((records) => {
    if (records.some((r) => !ours(r.target))) changes++;
  });
  const changed = () => {
    changes++;
  };

  function apply(next: RecordingView): void {
    if (next.recording && !view.recording) {
      watcher.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      window.addEventListener('input', changed, true);
      window.addEventListener('scroll', changed, true);
    } else if (!next.recording && view.recording) {
      watcher.disconnect();
      window.removeEventListener('input', changed, true);
      window.removeEventListener('scroll', changed, true);
    }
    view = next;
    indicator?.show(view);
    if (view.recording) (document.head ?? document.documentElement).append(redactionStyle);
    else redactionStyle.remove();
    if (!view.recording && picking) setPicking(false);
  }

  function setPicking(on: boolean): void {
    picking = on;
    indicator?.picking(on, view);
  }

  function onIndicator(action: IndicatorAction): void {
    if (action === 'blur') setPicking(!picking);
    else void send({ type: 'control', action });
  }

  const recordingNow = () => view.recording && !view.paused;

  /**
   * Screenshot before the page reacts: asked for when the pointer goes down (a click lands on release), with
   * the indicator hidden until it is taken. Answers the token the step names its screenshot by.
   */
  function requestShot(): string {
    const token = randomId();
    indicator?.hide(true);
    void send({ type: 'prepare-shot', token, page: `${location.href} ${changes}` })
      .catch(() => undefined)
      .finally(() => indicator?.hide(false));
    return token;
  }

  /** The element's box in the top page's viewport, through the same-origin frames it sits in. */
  function boxInTop(el: Element): Pick<StepTarget, 'x' | 'y' | 'width' | 'height'> {
    const rect = el.getBoundingClientRect();
    let x = rect.left;
    let y = rect.top;
    let win: Window = el.ownerDocument.defaultView ?? window;
    while (win !== top && win.frameElement) {
      const frame = win.frameElement.getBoundingClientRect();
      x += frame.left + (win.frameElement as HTMLElement).clientLeft;
      y += frame.top + (win.frameElement as HTMLElement).clientTop;
      win = win.parent;
    }
    return { x, y, width: rect.width, height: rect.height };
  }

  function record(action: StepDraft['action'], el: Element, text: { title: string; value: string | null }, shot: string | null): void {
    const doc = top!.document;
    const started = performance.now();
    const frozen = freezeDocument(doc, { target: el, shadowRootOf });
    // The indicator is ours, not the page's: out of the snapshot. Taken out of the copy, not the page, which
    // would have to work out the styles of the whole page again.
    frozen.root.querySelector(INDICATOR_TAG)?.remove();
    const frozenMs = performance.now() - started;
    const step: StepDraft = {
      id: randomId(),
      action,
      title: text.title,
      pageUrl: top!.location.href,
      viewport: { width: top!.innerWidth, height: top!.innerHeight },
      target: { ...boxInTop(el), selector: selectorOf(el), label: labelOf(el) || null },
      value: text.value,
      shot,
    };
    unfinished.set(step.id, () => frozen.fallbackHtml());
    // After the page's own handlers: nothing here may delay them.
    setTimeout(async () => {
      let stored = false;
      try {
        const reply = await send<{ steps: number; stored: boolean }>({ type: 'step', step });
        stored = reply.stored;
        // For measurements (npm run bench:recorder): as a string, since an object does not cross from this
        // script's world to the page's.
        const detail = JSON.stringify({ steps: reply.steps, frozenMs, recordedMs: performance.now() - started });
        window.dispatchEvent(new CustomEvent('demoshare:step', { detail }));
      } catch {
        unfinished.delete(step.id);
        return;
      }
      if (!stored) {
        unfinished.delete(step.id);
        return;
      }
      try {
        const { html } = await serializeFrozen(frozen, {
          fetchResource: (url, kind) => send<FetchedResource | null>({ type: 'fetch-resource', url, kind }).catch(() => null),
        });
        if (unfinished.delete(step.id)) await send({ type: 'step-snapshot', id: step.id, snapshot: html });
      } catch {
        const html = unfinished.get(step.id)?.();
        unfinished.delete(step.id);
        if (html) await send({ type: 'step-snapshot', id: step.id, snapshot: html }).catch(() => undefined);
      }
    }, 0);
  }

  // The page is going away (a link or a form went to another page) before a snapshot was inlined: send it
  // as it is, with its stylesheets as links, rather than lose it.
  window.addEventListener('pagehide', () => {
    for (const [id, fallback] of unfinished) {
      const html = fallback();
      if (html) void send({ type: 'step-snapshot', id, snapshot: html }, 1).catch(() => undefined);
    }
    unfinished.clear();
  });

  window.addEventListener(
    'pointerdown',
    (event) => {
      if (!recordingNow() || picking || event.button !== 0 || indicator?.contains(event)) return;
      pendingShot = requestShot();
    },
    true,
  );

  window.addEventListener(
    'click',
    (event) => {
      if (indicator?.contains(event)) return;
      const origin = event.composedPath()[0];
      if (!(origin instanceof Element)) return;
      if (picking) {
        // Blur mode: this click chooses what to blur; the page never sees it.
        event.preventDefault();
        event.stopImmediatePropagation();
        origin.setAttribute(BLUR_ATTRIBUTE, '');
        setPicking(false);
        return;
      }
      if (!recordingNow()) return;
      const el = actionableTarget(origin);
      const shot = pendingShot;
      pendingShot = null;
      // A click on a label clicks its field too: one step, not two.
      const now = performance.now();
      if (lastClick && now - lastClick.at < 100 && lastClick.el instanceof HTMLLabelElement && lastClick.el.control === el) return;
      lastClick = { el, at: now };
      // Typing into a field (or choosing in a list) is the step, with its value: not the click that focused it.
      if (isTextEntry(el) || el instanceof HTMLSelectElement) return;
      record('click', el, { title: clickTitle(el), value: null }, shot);
    },
    true,
  );

  window.addEventListener(
    'change',
    (event) => {
      if (!recordingNow()) return;
      const el = event.composedPath()[0];
      if (!(el instanceof Element)) return;
      if (!(isTextEntry(el) || el instanceof HTMLSelectElement)) return;
      if ((el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && el.value === '') return;
      record('type', el, typeTitle(el), requestShot());
    },
    true,
  );

  chrome.runtime.onMessage.addListener((message: { type?: string; view?: RecordingView }) => {
    if (message.type === 'state' && message.view) apply(message.view);
  });

  const start = () => void send<RecordingView>({ type: 'hello' }).then(apply, () => undefined);
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else start();
}

boot();
