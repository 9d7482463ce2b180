// Retry and Delete for a demo whose generation failed before it had a step: in the list and above the editor.
import { useState } from 'react';
import { demosApi } from '../../api/demos.api';
import type { Demo } from '../../api/types';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { useCan } from '../../session/use-can';

interface Props {
  demo: Pick<Demo, 'id' | 'title' | 'source_url'>;
  /** In a list row the buttons name their demo (many rows, one screen); above the editor they need not. */
  inList?: boolean;
  /** After the generation was started again. */
  onRetried(): unknown;
  /** After the demo was deleted. */
  onDeleted(): unknown;
}

/**
 * Retry (editors, when there is an address to capture again) and Delete (with a confirmation), each shown
 * only to whom the role allows it.
 */
export function FailedAttemptActions({ demo, inList = false, onRetried, onDeleted }: Props) {
  const allowed = useCan();
  const notify = useToast();
  const [retrying, setRetrying] = useState(false);
  const [deleting, setDeleting] = useState(false);
  return (
    <>
      <span className="row">
        {allowed('demos.write') && demo.source_url ? (
          <Button
            size="sm"
            variant={inList ? undefined : 'primary'}
            loading={retrying}
            aria-label={inList ? `Retry generating ${demo.title}` : undefined}
            onClick={async () => {
              setRetrying(true);
              try {
                await demosApi.generate(demo.id);
                await onRetried();
              } catch (error) {
                notify(error instanceof Error ? error.message : 'Could not start the generation again', 'danger');
              } finally {
                setRetrying(false);
              }
            }}
          >
            Retry
          </Button>
        ) : null}
        {allowed('demos.delete') ? (
          <Button
            size="sm"
            variant={inList ? 'ghost' : undefined}
            aria-label={inList ? `Delete ${demo.title}` : undefined}
            onClick={() => setDeleting(true)}
          >
            Delete
          </Button>
        ) : null}
      </span>
      {deleting ? (
        <ConfirmDialog
          title={`Delete the failed attempt ${demo.title}?`}
          confirmLabel="Delete"
          danger
          onClose={() => setDeleting(false)}
          onConfirm={async () => {
            await demosApi.remove(demo.id);
            notify(`${demo.title} was deleted`);
            setDeleting(false);
            await onDeleted();
          }}
        >
          <p>It has no steps; nothing else is lost.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
