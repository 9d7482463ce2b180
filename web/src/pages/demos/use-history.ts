import { useEffect, useRef, useState } from 'react';
import { isTextTarget } from './step-canvas';

/** One change the editor can take back and make again (each side is an API call). */
export interface HistoryEntry {
  undo(): Promise<unknown>;
  redo(): Promise<unknown>;
}

/**
 * Undo and redo of the editor's own changes (step text, hotspot boxes, step order), with Ctrl/Cmd+Z and
 * Ctrl/Cmd+Shift+Z or Ctrl+Y. In a text field the keys are the field's: its own undo of what is typed.
 * `run` performs a side of an entry and says whether it worked; one that did not is dropped.
 */
export function useHistory(run: (work: () => Promise<unknown>) => Promise<boolean>) {
  const past = useRef<HistoryEntry[]>([]);
  const future = useRef<HistoryEntry[]>([]);
  const [, setVersion] = useState(0);
  const changed = () => setVersion((v) => v + 1);

  const record = (entry: HistoryEntry) => {
    past.current.push(entry);
    future.current = [];
    changed();
  };
  const undo = async () => {
    const entry = past.current.pop();
    if (!entry) return;
    changed();
    if (await run(entry.undo)) future.current.push(entry);
    changed();
  };
  const redo = async () => {
    const entry = future.current.pop();
    if (!entry) return;
    changed();
    if (await run(entry.redo)) past.current.push(entry);
    changed();
  };

  const latest = useRef({ undo, redo });
  latest.current = { undo, redo };
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || isTextTarget(event.target)) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) {
        event.preventDefault();
        void latest.current.undo();
      } else if ((key === 'z' && event.shiftKey) || (key === 'y' && !event.shiftKey)) {
        event.preventDefault();
        void latest.current.redo();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return { record, undo, redo, canUndo: past.current.length > 0, canRedo: future.current.length > 0 };
}
