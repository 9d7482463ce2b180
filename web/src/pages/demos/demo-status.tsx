import { useState } from 'react';
import { useNavigate } from 'react-router';
import { demosApi } from '../../api/demos.api';
import type { Demo, DemoStatus } from '../../api/types';
import { Badge, type BadgeTone } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { useCan } from '../../session/use-can';
import { failureWords } from './generation-progress';

const TONES: Record<DemoStatus, BadgeTone> = { generating: 'accent', draft: 'neutral', published: 'success', archived: 'warning' };
export const STATUS_LABELS: Record<DemoStatus, string> = { generating: 'Generating', draft: 'Draft', published: 'Published', archived: 'Archived' };

export function DemoStatusBadge({ status }: { status: DemoStatus }) {
  return <Badge tone={TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** A generation that failed and left nothing: once steps are added (by hand or by regenerating) it is past. */
export const generationFailed = (demo: Pick<Demo, 'generation' | 'step_count'>) =>
  demo.generation.status === 'failed' && demo.step_count === 0;

/**
 * The status in the list. A demo whose generation failed before it had a step is not a draft to anyone:
 * it shows as a failed attempt, with why, and Retry and Delete right there.
 */
export function DemoListStatus({ demo, onChanged }: { demo: Demo; onChanged?(): void }) {
  if (!generationFailed(demo)) return <DemoStatusBadge status={demo.status} />;
  return <FailedAttempt demo={demo} onChanged={onChanged} />;
}

function FailedAttempt({ demo, onChanged }: { demo: Demo; onChanged?(): void }) {
  const allowed = useCan();
  const navigate = useNavigate();
  const notify = useToast();
  const [retrying, setRetrying] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const words = failureWords(demo, allowed('workspace.manage'));
  return (
    <span className="cell-stack failed-attempt">
      <span>
        <Badge tone="danger">Generation failed</Badge>
      </span>
      <span className="cell-sub" title={words}>
        {words}
      </span>
      <span className="row">
        {allowed('demos.write') && demo.source_url ? (
          <Button
            size="sm"
            loading={retrying}
            aria-label={`Retry generating ${demo.title}`}
            onClick={async () => {
              setRetrying(true);
              try {
                await demosApi.generate(demo.id);
                navigate(`/demos/${demo.id}`);
              } catch (error) {
                notify(error instanceof Error ? error.message : 'Could not start the generation again');
                setRetrying(false);
              }
            }}
          >
            Retry
          </Button>
        ) : null}
        {allowed('demos.delete') ? (
          <Button size="sm" variant="ghost" aria-label={`Delete ${demo.title}`} onClick={() => setDeleting(true)}>
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
            onChanged?.();
          }}
        >
          <p>It has no steps; nothing else is lost.</p>
        </ConfirmDialog>
      ) : null}
    </span>
  );
}
