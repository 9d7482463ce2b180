import type { Member } from '../../api/types';
import { Badge } from '../../components/badge';
import { formatDate } from '../../lib/format';

/** Active, or where a pending invitation stands: waiting, expired, or its e-mail failed. */
export function MemberStatus({ member }: { member: Member }) {
  const invitation = member.invitation;
  if (member.status === 'active' || !invitation) return <Badge tone="success">Active</Badge>;
  if (invitation.expired) {
    return (
      <span className="member-status">
        <Badge tone="danger">Invitation expired</Badge>
        <span className="muted">Resend to invite again</span>
      </span>
    );
  }
  if (invitation.email_status === 'failed') {
    return (
      <span className="member-status" title={invitation.email_error ?? undefined}>
        <Badge tone="danger">E-mail failed</Badge>
        <span className="muted">{invitation.email_error ?? 'The e-mail could not be sent'}</span>
      </span>
    );
  }
  return (
    <span className="member-status">
      <Badge tone="warning">Invited</Badge>
      <span className="muted">Until {formatDate(invitation.expires_at)}</span>
    </span>
  );
}
