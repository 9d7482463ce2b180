import type { RecordingView } from '../shared/messages';

export const INDICATOR_TAG = 'demoshare-recorder';

export type IndicatorAction = 'pause' | 'resume' | 'undo' | 'stop' | 'blur';

const STYLE = `
:host { all: initial; position: fixed; z-index: 2147483647; right: 16px; bottom: 16px; }
.bar { display: flex; align-items: center; gap: 6px; padding: 6px 8px 6px 12px; border-radius: 999px;
  background: #1f2430; color: #fff; font: 500 13px/1.2 system-ui, -apple-system, "Segoe UI", sans-serif;
  box-shadow: 0 4px 16px rgba(0,0,0,.25); }
.dot { width: 10px; height: 10px; border-radius: 50%; background: #ff4d4f; animation: pulse 1.4s ease-in-out infinite; }
.paused .dot { background: #f5a623; animation: none; }
.bar.picking { background: #4338ca; }
@keyframes pulse { 50% { opacity: .35; } }
.status { margin-right: 4px; white-space: nowrap; }
button { all: unset; cursor: pointer; padding: 4px 9px; border-radius: 999px; background: rgba(255,255,255,.12); font: inherit; }
button:hover { background: rgba(255,255,255,.24); }
button:focus-visible { outline: 2px solid #8ab4ff; outline-offset: 1px; }
button.stop { background: #ff4d4f; }
button[disabled] { opacity: .45; cursor: default; }
@media (prefers-reduced-motion: reduce) { .dot { animation: none; } }
`;

/**
 * The on-page indicator: recording state, step count, pause, undo, blur and stop. It lives in a shadow
 * root so that the page's styles cannot reach it, and is left out of snapshots and screenshots.
 */
export class Indicator {
  readonly host: HTMLElement;
  private readonly root: ShadowRoot;
  private readonly status: HTMLElement;
  private readonly pause: HTMLButtonElement;
  private readonly undo: HTMLButtonElement;
  private readonly blur: HTMLButtonElement;

  constructor(onAction: (action: IndicatorAction) => void) {
    this.host = document.createElement(INDICATOR_TAG);
    this.host.setAttribute('data-demoshare-ui', '');
    // Open, so that tests can read it; the page could remove the host anyway, and our buttons ignore
    // clicks the page's scripts make (isTrusted).
    this.root = this.host.attachShadow({ mode: 'open' });
    this.root.innerHTML = `<style>${STYLE}</style>
      <div class="bar" role="status" aria-live="polite">
        <span class="dot" aria-hidden="true"></span><span class="status"></span>
        <button type="button" data-action="pause"></button>
        <button type="button" data-action="undo" title="Remove the last step">Undo</button>
        <button type="button" data-action="blur" title="Click an element to blur it in every step">Blur</button>
        <button type="button" data-action="stop" class="stop" title="Stop and upload (Alt+Shift+R)">Stop</button>
      </div>`;
    this.status = this.root.querySelector('.status')!;
    this.pause = this.root.querySelector('[data-action="pause"]')!;
    this.undo = this.root.querySelector('[data-action="undo"]')!;
    this.blur = this.root.querySelector('[data-action="blur"]')!;
    this.root.addEventListener('click', (event) => {
      if (!event.isTrusted) return;
      const button = (event.target as Element).closest('button');
      const action = button?.dataset.action as IndicatorAction | 'pause' | undefined;
      if (!action) return;
      onAction(action === 'pause' && this.pause.dataset.paused === 'true' ? 'resume' : action);
    });
  }

  show(view: RecordingView): void {
    if (!view.recording) {
      this.host.remove();
      return;
    }
    if (!this.host.isConnected) (document.body ?? document.documentElement).append(this.host);
    const bar = this.root.querySelector('.bar')!;
    bar.classList.toggle('paused', view.paused);
    this.status.textContent = `${view.paused ? 'Paused' : 'Recording'} · ${view.steps} ${view.steps === 1 ? 'step' : 'steps'}`;
    this.pause.textContent = view.paused ? 'Resume' : 'Pause';
    this.pause.dataset.paused = String(view.paused);
    this.undo.disabled = view.steps === 0;
  }

  /** Blur mode: the next click on the page picks an element to blur instead of recording a step. */
  picking(on: boolean, view: RecordingView): void {
    this.root.querySelector('.bar')!.classList.toggle('picking', on);
    this.blur.textContent = on ? 'Cancel blur' : 'Blur';
    if (on) this.status.textContent = 'Click what to blur';
    else this.show(view);
  }

  /** Hidden while a screenshot is taken, so that it never appears in one. */
  hide(hidden: boolean): void {
    this.host.style.visibility = hidden ? 'hidden' : '';
  }

  contains(event: Event): boolean {
    return event.composedPath().includes(this.host);
  }
}
