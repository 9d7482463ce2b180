import type { ViewerErasure } from '../../api/viewer-privacy.api';

/**
 * What erasing a viewer removes and what it cannot reach, in the words both confirm dialogs use (Settings
 * and demo analytics), after their own opening line.
 */
export function ErasureReach() {
  return (
    <>
      <ul>
        <li>their views of every demo, with the time spent on each step;</li>
        <li>their viewer sessions (they are signed out of open share pages) and share access-log entries;</li>
        <li>their address and name in the webhook delivery log; deliveries not sent yet are cancelled.</li>
      </ul>
      <p>
        Analytics are recalculated from the views that remain. This cannot be undone; the audit log records the
        erasure without the address. Copies outside Demoshare (backups, webhook receivers, exported CSV files) are not
        reached.
      </p>
    </>
  );
}

/** Whether an erasure found nothing recorded for the address (then the toast says so). */
export const erasedNothing = (counts: ViewerErasure) => counts.views === 0 && counts.access_log_entries === 0;
