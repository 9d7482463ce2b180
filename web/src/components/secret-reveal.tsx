import type { ReactNode } from 'react';
import { Alert } from './alert';
import { Button } from './button';
import { CopyField } from './copy-field';
import { Dialog } from './dialog';

export interface Secret {
  label: string;
  value: string;
  /** Names the copy button when there are several (“Copy signing secret”). */
  copyLabel?: string;
}

/**
 * A secret shown once (an API key, a signing or client secret): a warning to copy it now, saying why it
 * cannot be shown again (`children`), and a copy field for each value.
 */
export function SecretReveal({ warning, secrets, children }: { warning: string; secrets: Secret[]; children: ReactNode }) {
  return (
    <>
      <Alert tone="warning" title={warning}>
        {children}
      </Alert>
      {secrets.map((s) => (
        <CopyField key={s.label} label={s.label} copyLabel={s.copyLabel} value={s.value} />
      ))}
    </>
  );
}

/**
 * The dialog that shows secrets after a creation or a rotation: one way out (Done), since what it shows
 * cannot be brought back once it is closed.
 */
export function SecretRevealDialog({
  title,
  description,
  onClose,
  children,
}: {
  title: string;
  description?: ReactNode;
  onClose(): void;
  children: ReactNode;
}) {
  return (
    <Dialog
      title={title}
      description={description}
      size="lg"
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="stack">{children}</div>
    </Dialog>
  );
}
