import { useState } from 'react';
import type { DemoCheckStep } from '../../api/staleness.api';
import { Button } from '../../components/button';
import { useToast } from '../../components/toast';
import { describeReasons } from './use-stale-check';

/** Above the canvas of a step the newest check found stale: why, and the replace action. */
export function StaleStepNotice({
  result,
  captureUrl,
  readOnly,
  onReplace,
}: {
  result: DemoCheckStep;
  /** The check's new screenshot of the step, shown small (hidden when the check kept none). */
  captureUrl: string | null;
  readOnly: boolean;
  onReplace(stepId: string): Promise<void>;
}) {
  const notify = useToast();
  const [busy, setBusy] = useState(false);
  const [shot, setShot] = useState(true);
  return (
    <div className="stale-step-notice" role="status">
      {captureUrl && shot && result.replaceable ? (
        <a className="stale-step-capture" href={captureUrl} target="_blank" rel="noreferrer" title="The page as the check found it: open it full size">
          <img src={captureUrl} alt="The new capture of this step" onError={() => setShot(false)} />
        </a>
      ) : null}
      <p>
        <strong>This step no longer matches its page:</strong> {describeReasons(result)}. <span className="stale-check-detail">{result.detail}</span>
      </p>
      {result.replaceable && !readOnly ? (
        <Button
          size="sm"
          loading={busy}
          onClick={async () => {
            setBusy(true);
            try {
              await onReplace(result.step_id);
              notify('Step replaced with the new capture');
            } catch (e) {
              notify((e as Error).message, 'danger');
            } finally {
              setBusy(false);
            }
          }}
        >
          Replace with the new capture, keep my text and patches
        </Button>
      ) : null}
    </div>
  );
}
