import type { Message, StatusView } from '../shared/messages';
import { connectWithKey, disconnect, finishConnect, RecorderError, startConnect } from './auth';
import { api } from './api';
import { addStep, control, discardRecording, RESUME_ALARM, resumeUpload, setSnapshot, startRecording, stopRecording, viewOf } from './recording';
import { fetchResource } from './resources';
import { prepareShot } from './screenshots';
import { store } from './store';

/**
 * The extension's service worker. It keeps no state of its own between events: the browser may stop it at
 * any moment, and every handler starts from chrome.storage.
 */

async function status(): Promise<StatusView> {
  const [connection, recording, pending] = await Promise.all([store.connection(), store.recording(), store.pendingAuth()]);
  return {
    connection: connection ? { instanceUrl: connection.instanceUrl, kind: connection.kind } : null,
    connecting: Boolean(pending),
    recording: recording
      ? {
          tabId: recording.tabId,
          status: recording.status,
          steps: recording.stepIds.length,
          into: recording.into,
          error: recording.error,
          editorUrl: recording.editorUrl,
          uploaded: recording.uploaded,
        }
      : null,
  };
}

async function activeTabId(): Promise<number> {
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (!tab?.id || !/^https?:/.test(tab.url ?? '')) throw new RecorderError('Open the page you want to record first (an http or https page).');
  return tab.id;
}

async function handle(message: Message, sender: chrome.runtime.MessageSender): Promise<unknown> {
  const tab = sender.tab;
  switch (message.type) {
    case 'hello':
      return viewOf(await store.recording(), tab?.id);
    case 'prepare-shot':
      if (tab?.active && tab.windowId !== undefined) await prepareShot(message.token, tab.windowId, message.page);
      return { ok: true };
    case 'step':
      if (!tab) return { steps: 0, stored: false };
      return addStep(message.step, tab);
    case 'step-snapshot':
      await setSnapshot(message.id, message.snapshot);
      return { ok: true };
    case 'fetch-resource':
      return fetchResource(message.url, message.kind);
    case 'control':
      if (message.action === 'stop') void stopRecording();
      else await control(message.action);
      return { ok: true };
    case 'status':
      return status();
    case 'connect':
      await startConnect(message.instanceUrl);
      return status();
    case 'connect-key':
      await connectWithKey(message.instanceUrl, message.apiKey);
      return status();
    case 'oauth-callback': {
      const connection = await finishConnect(message.url);
      return { instanceUrl: connection.instanceUrl };
    }
    case 'disconnect':
      await disconnect();
      return status();
    case 'start':
      await startRecording(message.tabId ?? (await activeTabId()), message.into);
      return status();
    case 'stop':
      void stopRecording();
      return status();
    case 'retry-upload':
      void resumeUpload();
      return status();
    case 'discard':
      await discardRecording();
      return status();
    case 'list-demos':
      return api('/v1/demos?per_page=100');
    case 'list-steps': {
      const demo = await api<{ steps: unknown[] }>(`/v1/demos/${encodeURIComponent(message.demoId)}`);
      return demo.steps;
    }
  }
}

chrome.runtime.onMessage.addListener((message: Message, sender, respond) => {
  handle(message, sender).then(
    (result) => respond({ ok: true, result }),
    (error: Error) => respond({ ok: false, error: error instanceof RecorderError ? error.message : `Something went wrong: ${error.message}` }),
  );
  return true;
});

chrome.commands.onCommand.addListener(async (command) => {
  if (command !== 'toggle-recording') return;
  const recording = await store.recording();
  if (recording && (recording.status === 'recording' || recording.status === 'paused')) await stopRecording();
  else await startRecording(await activeTabId()).catch(() => undefined);
});

chrome.tabs.onRemoved.addListener(async (tabId) => {
  const recording = await store.recording();
  if (recording?.tabId === tabId && (recording.status === 'recording' || recording.status === 'paused')) await stopRecording();
});

chrome.alarms.onAlarm.addListener((alarm) => {
  if (alarm.name === RESUME_ALARM) void resumeUpload();
});

// A worker started for any reason carries on with an upload an earlier one left unfinished.
void store.recording().then((recording) => {
  if (recording?.status === 'uploading') void resumeUpload();
});

/** For automation (tests, the benchmark): the same entry points the popup and the shortcut use. */
Object.assign(globalThis, { demoshareRecorder: { start: startRecording, stop: stopRecording, status } });
