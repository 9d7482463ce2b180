import { useNavigate } from 'react-router';
import type { Demo, DemoStatus } from '../../api/types';
import { Badge, type BadgeTone } from '../../components/badge';
import { useCan } from '../../session/use-can';
import { FailedAttemptActions } from './failed-attempt-actions';
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
  const words = failureWords(demo, allowed('workspace.manage'));
  return (
    <span className="cell-stack failed-attempt">
      <span>
        <Badge tone="danger">Generation failed</Badge>
      </span>
      <span className="cell-sub" title={words}>
        {words}
      </span>
      <FailedAttemptActions
        demo={demo}
        inList
        onRetried={() => navigate(`/demos/${demo.id}`)}
        onDeleted={() => onChanged?.()}
      />
    </span>
  );
}
