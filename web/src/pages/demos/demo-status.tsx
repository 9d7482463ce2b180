import type { Demo, DemoStatus } from '../../api/types';
import { Badge, type BadgeTone } from '../../components/badge';

const TONES: Record<DemoStatus, BadgeTone> = { generating: 'accent', draft: 'neutral', published: 'success', archived: 'warning' };
export const STATUS_LABELS: Record<DemoStatus, string> = { generating: 'Generating', draft: 'Draft', published: 'Published', archived: 'Archived' };

export function DemoStatusBadge({ status }: { status: DemoStatus }) {
  return <Badge tone={TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** A generation that failed and left nothing: once steps are added (by hand or by regenerating) it is past. */
export const generationFailed = (demo: Pick<Demo, 'generation' | 'step_count'>) =>
  demo.generation.status === 'failed' && demo.step_count === 0;

/** The status, and beside it, for a demo whose generation left it empty, why it is empty. */
export function DemoListStatus({ demo }: { demo: Demo }) {
  if (!generationFailed(demo)) return <DemoStatusBadge status={demo.status} />;
  return (
    <span className="badge-row" title={demo.generation.error ?? undefined}>
      <DemoStatusBadge status={demo.status} />
      <Badge tone="danger">Generation failed</Badge>
    </span>
  );
}
