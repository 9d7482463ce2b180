import type { CreatedApiKey } from '../../api/types';
import { Alert } from '../../components/alert';
import { SecretReveal, SecretRevealDialog } from '../../components/secret-reveal';
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
    <SecretRevealDialog
      title={rotated ? 'Key rotated' : 'API key created'}
      description={rotated ? `Here is the new value of “${key.name}”.` : `Your new key “${key.name}” is ready.`}
      onClose={onClose}
    >
      <SecretReveal warning="Copy this key now" secrets={[{ label: 'API key', value: key.key }]}>
        You will not see it again: Demoshare stores only a fingerprint of it. If you lose it, rotate it or create a new one.
      </SecretReveal>
      {rotated ? <Alert tone="info">{graceText(rotated.graceEndsAt)}</Alert> : null}
    </SecretRevealDialog>
  );
}
