import type { DemoStatus } from '../../api/types';
import { Badge, type BadgeTone } from '../../components/badge';

const TONES: Record<DemoStatus, BadgeTone> = { generating: 'accent', draft: 'neutral', published: 'success', archived: 'warning' };
export const STATUS_LABELS: Record<DemoStatus, string> = { generating: 'Generating', draft: 'Draft', published: 'Published', archived: 'Archived' };

export function DemoStatusBadge({ status }: { status: DemoStatus }) {
  return <Badge tone={TONES[status]}>{STATUS_LABELS[status]}</Badge>;
}
