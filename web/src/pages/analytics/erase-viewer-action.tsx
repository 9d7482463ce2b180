import { type ViewerErasure, viewerPrivacyApi } from '../../api/viewer-privacy.api';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { ErasureReach, erasedNothing } from '../settings/erasure-reach';

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What went, in a toast's few words: the counts an admin recognises from the confirm. */
function erasureSummary(email: string, counts: ViewerErasure): string {
  if (erasedNothing(counts)) return `Nothing was recorded for ${email}`;
  return `Erased ${email}: ${counted(counts.views, 'view', 'views')}, ${counted(counts.step_times, 'step time', 'step times')}, ${counted(counts.access_log_entries, 'access-log entry', 'access-log entries')}`;
}

/** The "Erase" button of an identified viewer's row (admins), named with the address for screen readers. */
export function EraseViewerButton({ email, onClick }: { email: string; onClick(): void }) {
  return (
    <Button size="sm" variant="ghost" className="btn-danger-text" onClick={onClick} aria-label={`Erase ${email}`}>
      Erase
    </Button>
  );
}

/**
 * The same erasure as Settings → Workspace → Viewer privacy, after the same confirm, then the counts in a
 * toast; `onErased` reloads the page so the viewer's rows and figures go. Rendered outside the table: a
 * cell's nowrap would stop its text from wrapping.
 */
export function EraseViewerDialog({ email, onClose, onErased }: { email: string; onClose(): void; onErased(): void }) {
  const notify = useToast();

  async function erase() {
    const counts = await viewerPrivacyApi.erase(email);
    onClose();
    notify(erasureSummary(email, counts));
    onErased();
  }

  return (
    <ConfirmDialog title="Erase this viewer’s data?" confirmLabel="Erase" danger onConfirm={erase} onClose={onClose}>
      <p>
        Everything this workspace recorded about <strong>{email}</strong> goes, for good, on every demo and not only this
        one:
      </p>
      <ErasureReach />
    </ConfirmDialog>
  );
}
