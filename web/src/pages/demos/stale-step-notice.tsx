import { useState } from 'react';
import type { DemoCheckStep } from '../../api/staleness.api';
import { Button } from '../../components/button';
import { useToast } from '../../components/toast';
import { describeReasons } from './use-stale-check';

/** Above the canvas of a step the newest check found stale: why, and the replace action. */
export function StaleStepNotice({ result, readOnly, onReplace }: { result: DemoCheckStep; readOnly: boolean; onReplace(stepId: string): Promise<void> }) {
  const notify = useToast();
  const [busy, setBusy] = useState(false);
  return (
    <div className="stale-step-notice" role="status">
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
