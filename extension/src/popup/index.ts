import type { PopupMessage, RecorderMode, StatusView } from '../shared/messages';

/** The toolbar popup: connect, choose where to record, start and stop, follow the upload. */
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

async function ask<T = StatusView>(message: PopupMessage): Promise<T> {
  const reply = (await chrome.runtime.sendMessage(message)) as { ok: boolean; result?: T; error?: string };
  if (!reply?.ok) throw new Error(reply?.error ?? 'The extension did not answer.');
  return reply.result as T;
}

function showError(message: string | null): void {
  const el = $('error');
  el.hidden = !message;
  el.textContent = message ?? '';
}

/** Runs a button's action with the button disabled, showing what went wrong. */
async function act(button: HTMLButtonElement, task: () => Promise<unknown>): Promise<void> {
  button.disabled = true;
  showError(null);
  try {
    const result = await task();
    if (result && typeof result === 'object' && 'connection' in result) render(result as StatusView);
  } catch (error) {
    showError((error as Error).message);
  } finally {
    button.disabled = false;
  }
}

function section(id: string, visible: boolean): void {
  $(id).hidden = !visible;
}

function render(status: StatusView): void {
  section('connect', !status.connection);
  section('connected', Boolean(status.connection));
  if (!status.connection) return;
  $('instance-name').textContent = new URL(status.connection.instanceUrl).host;
  const rec = status.recording;
  const state = rec?.status ?? 'idle';
  section('idle', state === 'idle');
  section('active', state === 'recording' || state === 'paused');
  section('uploading', state === 'uploading' || state === 'failed');
  section('done', state === 'done');
  if (!rec) return;
  const steps = `${rec.steps} ${rec.steps === 1 ? 'step' : 'steps'}`;
  $('active-text').textContent = `${state === 'paused' ? 'Paused' : 'Recording'} · ${steps}`;
  $('upload-text').textContent =
    state === 'failed' ? `The upload stopped after ${rec.uploaded} of ${steps}.` : `Uploading ${rec.uploaded} of ${steps}…`;
  $('upload-error').hidden = !rec.error;
  $('upload-error').textContent = rec.error ? `${rec.error}${state === 'uploading' ? ' Trying again shortly.' : ''}` : '';
  $('retry').hidden = !rec.error;
  $('discard').hidden = !rec.error;
  $('done-text').textContent = `Uploaded ${rec.uploaded} ${rec.uploaded === 1 ? 'step' : 'steps'}.`;
  const editor = $<HTMLButtonElement>('open-editor');
  editor.hidden = !rec.editorUrl;
  editor.dataset.url = rec.editorUrl ?? '';
}

async function loadDemos(): Promise<void> {
  const mode = $<HTMLSelectElement>('mode').value as RecorderMode;
  section('demo-row', mode !== 'new');
  section('step-row', mode === 'replace_step');
  if (mode === 'new') return;
  const select = $<HTMLSelectElement>('demo');
  if (select.options.length === 0) {
    const demos = await ask<{ id: string; title: string }[]>({ type: 'list-demos' });
    select.replaceChildren(...demos.map((d) => new Option(d.title || 'Untitled demo', d.id)));
  }
  if (mode === 'replace_step' && select.value) {
    const steps = await ask<{ id: string; number: number; title: string }[]>({ type: 'list-steps', demoId: select.value });
    $('step').replaceChildren(...steps.map((s) => new Option(`${s.number}. ${s.title || 'Untitled step'}`, s.id)));
  }
}

async function refresh(): Promise<void> {
  try {
    render(await ask({ type: 'status' }));
  } catch (error) {
    showError((error as Error).message);
  }
}

$('connect-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void act($('connect-button'), async () => {
    await ask({ type: 'connect', instanceUrl: $<HTMLInputElement>('instance').value });
    window.close();
  });
});
$('key-form').addEventListener('submit', (event) => {
  event.preventDefault();
  void act($('key-button'), () =>
    ask({ type: 'connect-key', instanceUrl: $<HTMLInputElement>('instance').value, apiKey: $<HTMLInputElement>('api-key').value }),
  );
});
$('disconnect').addEventListener('click', () => void act($('disconnect'), () => ask({ type: 'disconnect' })));
$('mode').addEventListener('change', () => void loadDemos().catch((e: Error) => showError(e.message)));
$('demo').addEventListener('change', () => {
  $('step').replaceChildren();
  void loadDemos().catch((e: Error) => showError(e.message));
});
$('start').addEventListener('click', () =>
  void act($('start'), () => {
    const mode = $<HTMLSelectElement>('mode').value as RecorderMode;
    const demoId = mode === 'new' ? undefined : $<HTMLSelectElement>('demo').value || undefined;
    const stepId = mode === 'replace_step' ? $<HTMLSelectElement>('step').value || undefined : undefined;
    return ask({ type: 'start', into: { mode, demoId, stepId } });
  }),
);
$('stop').addEventListener('click', () => void act($('stop'), () => ask({ type: 'stop' })));
$('retry').addEventListener('click', () => void act($('retry'), () => ask({ type: 'retry-upload' })));
$('discard').addEventListener('click', () => {
  if (confirm('Discard this recording? Its steps are deleted from this browser.')) void act($('discard'), () => ask({ type: 'discard' }));
});
$('open-editor').addEventListener('click', () => {
  const url = $('open-editor').dataset.url;
  if (url) void chrome.tabs.create({ url });
});
$('new-recording').addEventListener('click', () => void act($('new-recording'), () => ask({ type: 'discard' })));

/**
 * A build downloaded from a Demoshare instance carries that instance's address (instance.json, added when
 * the instance packs it): the address field starts with it, so connecting is one click. Store builds have none.
 */
async function suggestInstance(): Promise<void> {
  const input = $<HTMLInputElement>('instance');
  const found = await fetch(chrome.runtime.getURL('instance.json'))
    .then((res) => (res.ok ? (res.json() as Promise<{ instanceUrl?: unknown }>) : null))
    .catch(() => null);
  if (!input.value && typeof found?.instanceUrl === 'string') input.value = found.instanceUrl;
}

chrome.storage.onChanged.addListener(() => void refresh());
void suggestInstance();
void refresh();
