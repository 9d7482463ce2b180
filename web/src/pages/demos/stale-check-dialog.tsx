import { useEffect, useState } from 'react';
import { type CheckSchedule, stalenessApi } from '../../api/staleness.api';
import type { DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { useToast } from '../../components/toast';
import { describeReasons, type StaleCheckState } from './use-stale-check';
import '../../styles/stale-check.css';

const TONES: Record<string, BadgeTone> = { ok: 'success', changed: 'warning', missing: 'danger', unreachable: 'neutral' };

/**
 * More → Check for changes: run a stale-demo check, see each step's result, replace stale steps with the
 * new capture, and check on a schedule (docs/stale-check.md).
 */
export function StaleCheckDialog({ demo, state, readOnly, onClose }: { demo: DemoDetail; state: StaleCheckState; readOnly: boolean; onClose(): void }) {
  const notify = useToast();
  const [schedule, setSchedule] = useState<CheckSchedule | null>(null);
  const [replacing, setReplacing] = useState<string | null>(null);
  const { check } = state;

  useEffect(() => {
    stalenessApi.schedule(demo.id).then(setSchedule, () => {});
  }, [demo.id]);

  const run = () => state.start().catch((e: Error) => notify(e.message, 'danger'));
  const replace = async (stepId: string) => {
    setReplacing(stepId);
    try {
      await state.replace(stepId);
      notify('Step replaced with the new capture');
    } catch (e) {
      notify((e as Error).message, 'danger');
    } finally {
      setReplacing(null);
    }
  };
  const changeSchedule = async (value: string) => {
    try {
      setSchedule(await stalenessApi.setSchedule(demo.id, value === 'none' ? null : (value as 'daily' | 'weekly')));
      notify(value === 'none' ? 'No scheduled checks' : `Checked ${value}`);
    } catch (e) {
      notify((e as Error).message, 'danger');
    }
  };

  return (
    <Dialog
      title="Check for changes"
      description="Capture this demo’s pages again and compare each step with what it was made from: its target, its text, its place and its picture."
      onClose={onClose}
      size="lg"
    >
      <div className="stale-check">
        <div className="stale-check-actions">
          {readOnly ? null : (
            <Button variant="primary" loading={state.running} onClick={run}>
              {state.running ? 'Checking…' : 'Check now'}
            </Button>
          )}
          <label className="stale-check-schedule">
            Check on a schedule
            <select
              value={schedule?.interval ?? 'none'}
              disabled={readOnly || !schedule}
              onChange={(e) => void changeSchedule(e.target.value)}
            >
              <option value="none">Never</option>
              <option value="daily">Daily</option>
              <option value="weekly">Weekly</option>
            </select>
          </label>
        </div>
        <p className="stale-check-hint">
          A scheduled check that finds new drift e-mails the demo’s owner; every check with drift sends the <code>demo.stale</code> webhook. In CI:{' '}
          <code>demoshare demos check {demo.id}</code> (exit status 1 on drift).
        </p>
        {state.error ? <Alert tone="danger">{state.error}</Alert> : null}
        {!check ? <p>This demo has not been checked yet.</p> : null}
        {check?.status === 'failed' ? <Alert tone="danger" title="The check failed">{check.error}</Alert> : null}
        {check?.status === 'succeeded' ? (
          <>
            <p className="stale-check-verdict">
              {check.drift
                ? `${check.summary.checked - check.summary.ok} of ${check.summary.checked} steps no longer match their pages.`
                : `All ${check.summary.checked} steps match their pages.`}{' '}
              <span className="stale-check-when">Checked {new Date(check.finished_at ?? check.created_at).toLocaleString()}.</span>
            </p>
            <ol className="stale-check-steps">
              {check.steps.map((s) => (
                <li key={s.step_id} className="stale-check-step">
                  <span className="stale-check-number">{s.number}</span>
                  <span className="stale-check-what">
                    <Badge tone={TONES[s.status] ?? 'neutral'}>{s.status}</Badge> {s.status === 'ok' ? null : describeReasons(s)}
                    <span className="stale-check-detail">{s.detail}</span>
                    <span className="stale-check-url">{s.page_url}</span>
                  </span>
                  {s.replaced_at ? (
                    <Badge tone="success">Replaced</Badge>
                  ) : s.replaceable && !readOnly ? (
                    <Button size="sm" loading={replacing === s.step_id} disabled={replacing !== null} onClick={() => void replace(s.step_id)}>
                      {s.status === 'ok' ? 'Use the new capture' : 'Replace with the new capture'}
                    </Button>
                  ) : null}
                </li>
              ))}
            </ol>
          </>
        ) : null}
      </div>
    </Dialog>
  );
}
