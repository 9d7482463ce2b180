import type { CreatedApiKey } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { CopyField } from '../../components/copy-field';
import { Dialog } from '../../components/dialog';
import { formatDateTime } from '../../lib/format';

export interface Reveal {
  key: CreatedApiKey;
  /** Set after a rotation: the replaced key and when it stops working (once the list has reloaded). */
  rotated?: { name: string; graceEndsAt?: string | null };
}

function graceText(graceEndsAt: string | null | undefined): string {
  if (!graceEndsAt) return 'The old key keeps working for 24 hours, so you can switch over without downtime.';
  const hours = Math.round((new Date(graceEndsAt).getTime() - Date.now()) / 3_600_000);
  const span = hours >= 1 ? `for ${hours} hour${hours === 1 ? '' : 's'}` : 'for a short while';
  return `The old key keeps working ${span}, until ${formatDateTime(graceEndsAt)}, so you can switch over without downtime.`;
}

/** The only time a key's value is ever shown. */
export function KeyRevealDialog({ reveal, onClose }: { reveal: Reveal; onClose(): void }) {
  const { key, rotated } = reveal;
  return (
    <Dialog
      title={rotated ? 'Key rotated' : 'API key created'}
      description={rotated ? `Here is the new value of “${key.name}”.` : `Your new key “${key.name}” is ready.`}
      size="lg"
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="stack">
        <Alert tone="warning" title="Copy this key now">
          You will not see it again: Demoshare stores only a fingerprint of it. If you lose it, rotate it or create a new one.
        </Alert>
        <CopyField label="API key" value={key.key} />
        {rotated ? <Alert tone="info">{graceText(rotated.graceEndsAt)}</Alert> : null}
      </div>
    </Dialog>
  );
}
