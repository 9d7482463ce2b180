import { MAX_STEPS, type RecordInto, type RecordingView, type StepDraft } from '../shared/messages';
import { ApiFailure } from './api';
import { RecorderError } from './auth';
import { captureTab, claimShot } from './screenshots';
import { type Recording, serially, store } from './store';
import { uploadRecording } from './upload';

export const RESUME_ALARM = 'resume-upload';
/** Quick retries of an upload before leaving it to the alarm. */
const RETRIES = 3;

export function viewOf(recording: Recording | null, tabId: number | undefined): RecordingView {
  const live = recording && recording.tabId === tabId && (recording.status === 'recording' || recording.status === 'paused');
  return { recording: Boolean(live), paused: recording?.status === 'paused', steps: live ? recording.stepIds.length : 0 };
}

/** Tells the recorded tab's frames (the indicator) and the toolbar badge what changed. */
async function announce(recording: Recording | null, tabId: number): Promise<void> {
  const view = viewOf(recording, tabId);
  await chrome.tabs.sendMessage(tabId, { type: 'state', view }).catch(() => undefined);
  const text = view.recording ? (view.paused ? '❚❚' : String(view.steps)) : '';
  await chrome.action.setBadgeBackgroundColor({ color: '#d93025', tabId }).catch(() => undefined);
  await chrome.action.setBadgeText({ text, tabId }).catch(() => undefined);
}

async function ensureContentScript(tabId: number): Promise<void> {
  // Tabs opened before the extension was installed have no content script yet; the script ignores a second load.
  await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: ['content.js'] }).catch(() => undefined);
}

export function startRecording(tabId: number, into: RecordInto = { mode: 'new' }): Promise<Recording> {
  return serially(async () => {
    if (!(await store.connection())) throw new RecorderError('Connect the extension to your Demoshare first.');
    const current = await store.recording();
    if (current && (current.status === 'recording' || current.status === 'paused')) {
      throw new RecorderError('A recording is already running. Stop it first.');
    }
    if (current && (current.status === 'uploading' || current.status === 'failed')) {
      throw new RecorderError('The last recording has not been uploaded yet: retry or discard it first.');
    }
    if (into.mode !== 'new' && !into.demoId) throw new RecorderError('Choose the demo to record into.');
    if (into.mode === 'replace_step' && !into.stepId) throw new RecorderError('Choose the step to replace.');
    const recording: Recording = {
      id: crypto.randomUUID(),
      tabId,
      status: 'recording',
      startedAt: Date.now(),
      stepIds: [],
      into,
      uploadId: null,
      uploaded: 0,
      editorUrl: null,
      error: null,
    };
    await store.setRecording(recording);
    await ensureContentScript(tabId);
    await announce(recording, tabId);
    return recording;
  });
}

/** Stores a step from the page; answers the step count. A step sent twice (a retried message) is kept once. */
export function addStep(draft: StepDraft, tab: chrome.tabs.Tab): Promise<{ steps: number; stored: boolean }> {
  const shot = claimShot(draft.shot);
  return serially(async () => {
    const recording = await store.recording();
    if (!recording || recording.tabId !== tab.id || recording.status !== 'recording') return { steps: 0, stored: false };
    if (recording.stepIds.includes(draft.id)) return { steps: recording.stepIds.length, stored: true };
    if (recording.stepIds.length >= MAX_STEPS) return { steps: recording.stepIds.length, stored: false };
    const screenshot = (await shot) ?? (tab.active ? await captureTab(tab.windowId) : null);
    await store.setStep({ ...draft, screenshot, snapshot: null, recordedAt: Date.now() });
    const next = { ...recording, stepIds: [...recording.stepIds, draft.id] };
    await store.setRecording(next);
    await announce(next, recording.tabId);
    if (next.into.mode === 'replace_step') void stopRecording();
    return { steps: next.stepIds.length, stored: true };
  });
}

/** The page finished serialising a step's snapshot after the step was stored. */
export function setSnapshot(id: string, snapshot: string): Promise<void> {
  return serially(async () => {
    const recording = await store.recording();
    const step = recording?.stepIds.includes(id) ? await store.step(id) : null;
    if (step) await store.setStep({ ...step, snapshot });
  });
}

export function control(action: 'pause' | 'resume' | 'undo'): Promise<void> {
  return serially(async () => {
    const recording = await store.recording();
    if (!recording || (recording.status !== 'recording' && recording.status !== 'paused')) return;
    let next = recording;
    if (action === 'pause') next = { ...recording, status: 'paused' };
    if (action === 'resume') next = { ...recording, status: 'recording' };
    if (action === 'undo' && recording.stepIds.length > 0) {
      const last = recording.stepIds[recording.stepIds.length - 1]!;
      next = { ...recording, stepIds: recording.stepIds.slice(0, -1) };
      await store.removeSteps([last]);
    }
    await store.setRecording(next);
    await announce(next, recording.tabId);
  });
}

export async function stopRecording(): Promise<void> {
  const stopped = await serially(async () => {
    const recording = await store.recording();
    if (!recording || (recording.status !== 'recording' && recording.status !== 'paused')) return null;
    if (recording.stepIds.length === 0) {
      await store.setRecording(null);
      await announce(null, recording.tabId);
      return null;
    }
    const next: Recording = { ...recording, status: 'uploading' };
    await store.setRecording(next);
    await announce(next, recording.tabId);
    return next;
  });
  if (stopped) await resumeUpload();
}

let uploading: Promise<void> | null = null;

/** Uploads the stopped recording, or carries on with an upload a stopped worker left unfinished. */
export function resumeUpload(): Promise<void> {
  uploading ??= (async () => {
    try {
      const recording = await store.recording();
      if (!recording || (recording.status !== 'uploading' && recording.status !== 'failed')) return;
      if (recording.status === 'failed') await store.setRecording({ ...recording, status: 'uploading', error: null });
      // Until it completes, an alarm wakes a stopped worker to carry on.
      await chrome.alarms.create(RESUME_ALARM, { periodInMinutes: 1 });
      for (let attempt = 1; ; attempt++) {
        try {
          const done = await uploadRecording((await store.recording())!, async (uploaded) => {
            const current = await store.recording();
            if (current) await store.setRecording({ ...current, uploaded });
          });
          const finished = (await store.recording())!;
          await store.removeSteps(finished.stepIds);
          await store.setRecording({ ...finished, status: 'done', stepIds: [], error: null, uploaded: finished.stepIds.length, editorUrl: done.editor_url });
          await chrome.alarms.clear(RESUME_ALARM);
          if (done.editor_url) await chrome.tabs.create({ url: done.editor_url });
          return;
        } catch (error) {
          const current = await store.recording();
          const transient = error instanceof ApiFailure ? error.transient : !(error instanceof RecorderError);
          if (current) await store.setRecording({ ...current, status: transient ? 'uploading' : 'failed', error: (error as Error).message });
          // A refusal will not change by itself: the user retries or discards from the popup.
          if (!transient) await chrome.alarms.clear(RESUME_ALARM);
          // A dropped connection is usually gone a moment later; after that, the alarm tries every minute.
          if (!transient || attempt >= RETRIES) return;
          await new Promise((resolve) => setTimeout(resolve, 1000 * 2 ** (attempt - 1)));
        }
      }
    } finally {
      uploading = null;
    }
  })();
  return uploading;
}

export function discardRecording(): Promise<void> {
  return serially(async () => {
    const recording = await store.recording();
    if (!recording) return;
    await store.removeSteps(recording.stepIds);
    await store.setRecording(null);
    await chrome.alarms.clear(RESUME_ALARM);
    await announce(null, recording.tabId);
  });
}
