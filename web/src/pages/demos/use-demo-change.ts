import { useState } from 'react';
import { ApiError } from '../../api/client';
import { useToast } from '../../components/toast';

/**
 * The editor's one way to change the demo: run the change, say `done` if given, report a refusal (409,
 * 400...) in words, and reload the demo either way, since a refused change may mean it changed elsewhere.
 */
export function useDemoChange(reload: () => Promise<void>) {
  const notify = useToast();
  const [busy, setBusy] = useState(false);

  async function act(work: () => Promise<unknown>, done?: string) {
    setBusy(true);
    try {
      await work();
      if (done) notify(done);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'That did not work. Try again.', 'danger');
    } finally {
      setBusy(false);
      await reload();
    }
  }

  return { busy, act };
}

export type DemoChange = ReturnType<typeof useDemoChange>['act'];
