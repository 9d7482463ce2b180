import { useCallback, useEffect, useRef, useState } from 'react';
import { type DemoCheck, type DemoCheckStep, stalenessApi } from '../../api/staleness.api';

const POLL_MS = 1500;

/** What the words of a check's reasons are in the editor. */
export const REASON_WORDS: Record<string, string> = {
  text_changed: 'its text changed',
  box_moved: 'it moved',
  image_changed: 'it looks different',
  target_missing: 'its target is not on the page any more',
  login_required: 'the page asks for a sign-in (the check does not sign in)',
  not_found: 'the page is gone',
  http_error: 'the page answers with an error',
  blocked: 'the address is refused',
  timeout: 'the page took too long',
  unreachable: 'the page could not be reached',
};

export const describeReasons = (step: DemoCheckStep) => step.reasons.map((r) => REASON_WORDS[r] ?? r).join(', ');

/**
 * The demo's newest stale-demo check, polled while it runs: the steps it found stale (not replaced
 * since), and the actions on it. `reload` reloads the demo after a step was replaced.
 */
export function useStaleCheck(demoId: string, reload: () => Promise<void>) {
  const [check, setCheck] = useState<DemoCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const follow = useCallback(
    (found: DemoCheck | null) => {
      setCheck(found);
      clearTimeout(timer.current);
      if (found && (found.status === 'queued' || found.status === 'running')) {
        timer.current = setTimeout(() => {
          stalenessApi.get(demoId, found.id).then(follow, (e: Error) => setError(e.message));
        }, POLL_MS);
      }
    },
    [demoId],
  );

  useEffect(() => {
    stalenessApi.latest(demoId).then(follow, () => {});
    return () => clearTimeout(timer.current);
  }, [demoId, follow]);

  const stale = new Map<string, DemoCheckStep>();
  if (check?.status === 'succeeded') for (const s of check.steps) if (s.status !== 'ok' && !s.replaced_at) stale.set(s.step_id, s);

  return {
    check,
    error,
    /** Steps found stale by the newest check and not replaced since, by step id. */
    stale,
    running: check?.status === 'queued' || check?.status === 'running',
    /** Where the newest check's new screenshot of a step is (404 when it kept none). */
    captureUrl: (stepId: string) => (check ? stalenessApi.captureUrl(demoId, check.id, stepId) : null),
    start: async () => {
      setError(null);
      follow(await stalenessApi.start(demoId));
    },
    replace: async (stepId: string) => {
      if (!check) return;
      await stalenessApi.replace(demoId, check.id, stepId);
      await reload();
      follow(await stalenessApi.get(demoId, check.id));
    },
  };
}

export type StaleCheckState = ReturnType<typeof useStaleCheck>;
