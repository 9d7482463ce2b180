import type { Member } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { CopyField } from '../../components/copy-field';
import { Dialog } from '../../components/dialog';
import { formatDateTime } from '../../lib/format';

/**
 * Shown when the server has no SMTP set up: the invitation link came back to the admin, who passes it on.
 * It is the only time the link is shown; the server keeps only its digest.
 */
export function InvitationLinkDialog({ member, onClose }: { member: Member; onClose(): void }) {
  const invitation = member.invitation;
  if (!invitation?.url) return null;
  return (
    <Dialog
      title="Send this invitation link"
      description={`E-mail is not set up on this server, so nothing was sent to ${member.email}.`}
      size="lg"
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose}>
          Done
        </Button>
      }
    >
      <div className="stack">
        <CopyField label="Invitation link" value={invitation.url} copyLabel="invitation link" />
        <Alert tone="info">
          Send it to {member.email} yourself. It works once, only for that address, until {formatDateTime(invitation.expires_at)}. You will not see it
          again: use Resend for a new link, which replaces this one.
        </Alert>
      </div>
    </Dialog>
  );
}
