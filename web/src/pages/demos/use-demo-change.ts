import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { useToast } from '../../components/toast';
import { hasUnsavedText } from './use-draft-backup';

/** What the editor's quiet indicator says: saves are not toasts, they would pile up at every edit. */
export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

/**
 * The editor's one way to change the demo: run the change, say `done` if given, report a refusal (409,
 * 400...) in words, and reload the demo either way, since a refused change may mean it changed elsewhere.
 * A change with a `done` message is an action (publish, upload...): its refusal is told by its notice and
 * leaves the save indicator as it was; one without is a save, which the indicator reports ("Not saved").
 * While a change is on its way, or text is typed and not saved, the page asks before it is left.
 */
export function useDemoChange(reload: () => Promise<void>) {
  const notify = useToast();
  const [busy, setBusy] = useState(false);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const pending = useRef(0);
  const inFlight = useRef(new Set<Promise<boolean>>());

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (pending.current > 0 || hasUnsavedText()) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  async function run(work: () => Promise<unknown>, done?: string): Promise<boolean> {
    pending.current++;
    setBusy(true);
    if (!done) setSaveState('saving');
    let succeeded = false;
    try {
      await work();
      succeeded = true;
      if (!done) setSaveState('saved');
      else notify(done);
    } catch (err) {
      if (!done) setSaveState('failed');
      notify(err instanceof ApiError ? err.message : 'That did not work. Try again.', 'danger');
    } finally {
      pending.current--;
      setBusy(pending.current > 0);
      await reload();
    }
    return succeeded;
  }

  function act(work: () => Promise<unknown>, done?: string): Promise<boolean> {
    const change = run(work, done);
    inFlight.current.add(change);
    void change.then(() => inFlight.current.delete(change));
    return change;
  }

  /** Waits for the changes on their way (and those they lead to); true when every one of them worked. */
  async function settled(): Promise<boolean> {
    let allWorked = true;
    while (inFlight.current.size > 0) {
      const results = await Promise.all([...inFlight.current]);
      if (results.includes(false)) allWorked = false;
      // Let the finished ones leave the set before looking again.
      await Promise.resolve();
    }
    return allWorked;
  }

  return { busy, act, settled, saveState };
}

export type DemoChange = ReturnType<typeof useDemoChange>['act'];
