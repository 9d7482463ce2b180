import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { useToast } from '../../components/toast';

/** What the editor's quiet indicator says: saves are not toasts, they would pile up at every edit. */
export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

/**
 * The editor's one way to change the demo: run the change, say `done` if given (for actions, not for
 * saves, which the indicator reports), report a refusal (409, 400...) in words, and reload the demo
 * either way, since a refused change may mean it changed elsewhere. While a change is on its way the
 * page asks before it is left.
 */
export function useDemoChange(reload: () => Promise<void>) {
  const notify = useToast();
  const [busy, setBusy] = useState(false);
  const [saveState, setSaveState] = useState<SaveState>('idle');
  const pending = useRef(0);

  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (pending.current > 0) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, []);

  async function act(work: () => Promise<unknown>, done?: string): Promise<boolean> {
    pending.current++;
    setBusy(true);
    setSaveState('saving');
    let succeeded = false;
    try {
      await work();
      succeeded = true;
      setSaveState('saved');
      if (done) notify(done);
    } catch (err) {
      setSaveState('failed');
      notify(err instanceof ApiError ? err.message : 'That did not work. Try again.', 'danger');
    } finally {
      pending.current--;
      setBusy(pending.current > 0);
      await reload();
    }
    return succeeded;
  }

  return { busy, act, saveState };
}

export type DemoChange = ReturnType<typeof useDemoChange>['act'];
