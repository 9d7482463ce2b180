/** What the content script, the popup and the callback page say to the background worker, and its answers. */

/** The clicked or typed-in element, in CSS pixels of the top page's viewport. */
export interface StepTarget {
  x: number;
  y: number;
  width: number;
  height: number;
  selector: string | null;
  label: string | null;
}

export type StepAction = 'click' | 'type';

/** A step as the page records it; the background adds the screenshot. */
export interface StepDraft {
  /** Made in the page, so a step sent twice (the worker was restarted before it answered) is stored once. */
  id: string;
  action: StepAction;
  title: string;
  pageUrl: string;
  viewport: { width: number; height: number };
  target: StepTarget | null;
  value: string | null;
  /** Token of the screenshot the page asked for when the pointer went down (before the page reacted). */
  shot: string | null;
}

export type ResourceKind = 'css' | 'image' | 'font';

export interface FetchedResource {
  url: string;
  contentType: string;
  text?: string;
  dataUrl?: string;
}

export type RecorderMode = 'new' | 'append' | 'replace_step';

export interface RecordInto {
  mode: RecorderMode;
  demoId?: string;
  stepId?: string;
}

export type ContentMessage =
  | { type: 'hello' }
  | { type: 'prepare-shot'; token: string; page: string }
  | { type: 'step'; step: StepDraft }
  | { type: 'step-snapshot'; id: string; snapshot: string }
  | { type: 'fetch-resource'; url: string; kind: ResourceKind }
  | { type: 'control'; action: 'pause' | 'resume' | 'undo' | 'stop' };

export type PopupMessage =
  | { type: 'status' }
  | { type: 'connect'; instanceUrl: string }
  | { type: 'connect-key'; instanceUrl: string; apiKey: string }
  | { type: 'disconnect' }
  | { type: 'start'; tabId?: number; into?: RecordInto }
  | { type: 'stop' }
  | { type: 'retry-upload' }
  | { type: 'discard' }
  | { type: 'list-demos' }
  | { type: 'list-steps'; demoId: string };

export type CallbackMessage = { type: 'oauth-callback'; url: string };

export type Message = ContentMessage | PopupMessage | CallbackMessage;

/** What the page's indicator shows. */
export interface RecordingView {
  recording: boolean;
  paused: boolean;
  steps: number;
}

/** What the popup shows. */
export interface StatusView {
  connection: { instanceUrl: string; kind: 'oauth' | 'key' } | null;
  connecting: boolean;
  recording: {
    tabId: number;
    status: 'recording' | 'paused' | 'uploading' | 'failed' | 'done';
    steps: number;
    into: RecordInto;
    error: string | null;
    editorUrl: string | null;
    uploaded: number;
  } | null;
}

export const MAX_STEPS = 200;
