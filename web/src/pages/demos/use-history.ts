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

  // Entries change stacks as soon as a key is pressed, not when the API answers, so that quick presses
  // in a row each find their entry; one whose call fails is dropped.
  // One call at a time, in the order of the key presses, so an undo cannot overtake the change it undoes.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const inOrder = (work: () => Promise<unknown>) => {
    const next = queue.current.then(() => run(work));
    queue.current = next.catch(() => undefined);
    return next;
  };
  const drop = (entry: HistoryEntry) => {
    past.current = past.current.filter((e) => e !== entry);
    future.current = future.current.filter((e) => e !== entry);
    changed();
  };
  /** Runs `entry.redo` as a new change, recorded at once and dropped should it fail. */
  const perform = async (entry: HistoryEntry) => {
    past.current.push(entry);
    future.current = [];
    changed();
    if (!(await inOrder(entry.redo))) drop(entry);
  };
  const undo = async () => {
    const entry = past.current.pop();
    if (!entry) return;
    future.current.push(entry);
    changed();
    if (!(await inOrder(entry.undo))) drop(entry);
  };
  const redo = async () => {
    const entry = future.current.pop();
    if (!entry) return;
    past.current.push(entry);
    changed();
    if (!(await inOrder(entry.redo))) drop(entry);
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

  /** Resolves once the calls already queued have run (what Publish waits for). */
  const settled = () => queue.current;

  return { perform, undo, redo, settled, canUndo: past.current.length > 0, canRedo: future.current.length > 0 };
}
