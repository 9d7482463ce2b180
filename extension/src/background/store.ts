import type { RecordInto, StepDraft } from '../shared/messages';

/**
 * Everything the recorder must not lose lives in chrome.storage.local, never only in the worker's memory:
 * the browser stops an idle service worker whenever it likes (after 30 s, or sooner), and a recording
 * continues across that.
 */

export interface Connection {
  /** The address the user typed: the web app's origin, where the consent page lives. */
  instanceUrl: string;
  apiUrl: string;
  tokenEndpoint: string;
  revocationEndpoint: string;
  kind: 'oauth' | 'key';
  accessToken: string;
  refreshToken: string | null;
  /** Epoch ms; null for an API key. */
  expiresAt: number | null;
}

/** An OAuth authorisation on its way: the callback page finishes it, perhaps in a restarted worker. */
export interface PendingAuth {
  state: string;
  verifier: string;
  instanceUrl: string;
  apiUrl: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  revocationEndpoint: string;
  redirectUri: string;
  startedAt: number;
}

export interface Recording {
  id: string;
  tabId: number;
  status: 'recording' | 'paused' | 'uploading' | 'failed' | 'done';
  startedAt: number;
  stepIds: string[];
  into: RecordInto;
  /** The server's upload, once created: resuming asks it which steps it still lacks. */
  uploadId: string | null;
  uploaded: number;
  editorUrl: string | null;
  error: string | null;
}

export interface StoredStep extends StepDraft {
  screenshot: string | null;
  snapshot: string | null;
  recordedAt: number;
}

const area = () => chrome.storage.local;

async function read<T>(key: string): Promise<T | null> {
  const got = await area().get(key);
  return (got[key] as T | undefined) ?? null;
}

export const store = {
  connection: () => read<Connection>('connection'),
  setConnection: (c: Connection | null) => (c ? area().set({ connection: c }) : area().remove('connection')),
  pendingAuth: () => read<PendingAuth>('pendingAuth'),
  setPendingAuth: (p: PendingAuth | null) => (p ? area().set({ pendingAuth: p }) : area().remove('pendingAuth')),
  recording: () => read<Recording>('recording'),
  setRecording: (r: Recording | null) => (r ? area().set({ recording: r }) : area().remove('recording')),
  step: (id: string) => read<StoredStep>(`step:${id}`),
  setStep: (s: StoredStep) => area().set({ [`step:${s.id}`]: s }),
  removeSteps: (ids: string[]) => area().remove(ids.map((id) => `step:${id}`)),
};

let chain: Promise<unknown> = Promise.resolve();

/**
 * Runs `task` after every task queued before it. Messages arrive concurrently (a click's step and the
 * next click's screenshot request); changes to the recording are read-modify-write and must not interleave.
 */
export function serially<T>(task: () => Promise<T>): Promise<T> {
  const run = chain.then(task, task);
  chain = run.catch(() => undefined);
  return run;
}
