import { useEffect, useState, useSyncExternalStore } from 'react';

// Text typed in the editor and not saved yet: kept in localStorage (so it survives closing the tab) under
// `demoshare:draft:<demo>:<step or hotspot>:<field>`, and counted so the header can say "Unsaved changes…".

const PREFIX = 'demoshare:draft:';

const unsaved = new Set<string>();
const listeners = new Set<() => void>();
let unsavedCount = 0;

function markUnsaved(key: string, dirty: boolean) {
  if (dirty === unsaved.has(key)) return;
  if (dirty) unsaved.add(key);
  else unsaved.delete(key);
  unsavedCount = unsaved.size;
  for (const listener of listeners) listener();
}

/** Whether some field of the page holds text not yet handed to a save. */
export function hasUnsavedText(): boolean {
  return unsavedCount > 0;
}

/** Re-renders when fields become unsaved or saved; true while any holds typed text not yet saved. */
export function useUnsavedText(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => unsavedCount > 0,
  );
}

function readDraft(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeDraft(key: string, text: string | null) {
  try {
    if (text === null) localStorage.removeItem(key);
    else localStorage.setItem(key, text);
  } catch {
    // Storage may be full or disabled: the text is then only kept on the page.
  }
}

/**
 * A text input that saves when it loses focus (or on Enter), and only if the text changed. What is typed
 * and not saved yet is kept in localStorage under `draftKey` until the saved value catches up with it, so
 * closing the tab or reloading brings it back (`restored`, with a way to `discard` it).
 */
export function useSavedText(value: string, save: (text: string) => void, draftKey: string) {
  const key = `${PREFIX}${draftKey}`;
  const [text, setText] = useState(() => readDraft(key) ?? value);
  const [restored, setRestored] = useState(() => {
    const draft = readDraft(key);
    return draft !== null && draft !== value;
  });
  useEffect(() => {
    // The saved value caught up with the draft (or replaced it): the draft has done its job.
    const draft = readDraft(key);
    if (draft === null || draft === value) {
      writeDraft(key, null);
      setText(value);
    }
  }, [key, value]);
  // Typed text not saved counts as unsaved until it is handed over, or the field goes away.
  useEffect(() => () => markUnsaved(key, false), [key]);
  return {
    restored,
    discard: () => {
      writeDraft(key, null);
      setText(value);
      setRestored(false);
    },
    field: {
      value: text,
      onChange: (e: { target: { value: string } }) => {
        setText(e.target.value);
        writeDraft(key, e.target.value === value ? null : e.target.value);
        markUnsaved(key, e.target.value !== value);
      },
      onBlur: () => {
        setRestored(false);
        markUnsaved(key, false);
        if (text !== value) save(text);
      },
    },
  };
}

/** For a field that keeps its own text (the demo title): counts it as unsaved while it differs. */
export function useUnsavedMark(key: string, dirty: boolean) {
  useEffect(() => {
    markUnsaved(key, dirty);
  }, [key, dirty]);
  useEffect(() => () => markUnsaved(key, false), [key]);
}
