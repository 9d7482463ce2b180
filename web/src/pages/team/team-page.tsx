import { useState } from 'react';
import { authApi } from '../../api/auth.api';
import { ApiError } from '../../api/client';
import { teamApi } from '../../api/team.api';
import type { Member, Role } from '../../api/types';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { EmptyState } from '../../components/empty-state';
import { PlusIcon, UsersIcon } from '../../components/icons';
import { LoadError } from '../../components/load-error';
import { PageHeader } from '../../components/page-header';
import { LoadingBlock } from '../../components/spinner';
import { type Column, Table } from '../../components/table';
import { useToast } from '../../components/toast';
import { formatDate, initials } from '../../lib/format';
import { ROLE_LABELS, ROLE_WITH_ARTICLE } from '../../lib/roles';
import { useResource } from '../../lib/use-resource';
import { useSession, useSessionState } from '../../session/session-context';
import { useCan } from '../../session/use-can';
import { InvitationLinkDialog } from './invitation-link-dialog';
import { InviteDialog } from './invite-dialog';
import { MemberStatus } from './member-status';
import { RoleSelect } from './role-select';

export function TeamPage() {
  const session = useSession();
  const { signedIn } = useSessionState();
  const notify = useToast();
  const members = useResource(() => teamApi.list());
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [revoking, setRevoking] = useState<Member | null>(null);
  const [linkFor, setLinkFor] = useState<Member | null>(null);
  const [savingRole, setSavingRole] = useState<string | null>(null);
  const [resending, setResending] = useState<string | null>(null);
  const manage = useCan()('team.write');

  /** After an invitation or a resend: the link to pass on (no SMTP), the e-mail failure, or a confirmation. */
  function invitationIssued(member: Member, verb: 'sent' | 'resent') {
    if (member.invitation?.url) setLinkFor(member);
    else if (member.invitation?.email_status === 'failed') {
      notify(`The invitation e-mail to ${member.email} could not be sent: ${member.invitation.email_error ?? 'unknown error'}`, 'danger');
    } else notify(`Invitation ${verb} to ${member.email}`);
  }

  async function resend(member: Member) {
    setResending(member.id);
    try {
      invitationIssued(await teamApi.resendInvitation(member.id), 'resent');
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'The invitation could not be resent.', 'danger');
    } finally {
      setResending(null);
      await members.reload();
    }
  }

  async function changeRole(member: Member, role: Role) {
    setSavingRole(member.id);
    try {
      await teamApi.changeRole(member.id, role);
      notify(`${member.name || member.email} is now ${ROLE_WITH_ARTICLE[role]}`);
      // Demoting yourself changes what this screen may offer, so the session is read again.
      if (member.id === session.member_id) signedIn(await authApi.session());
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'The role could not be changed.', 'danger');
    } finally {
      setSavingRole(null);
      await members.reload();
    }
  }

  const columns: Column<Member>[] = [
    {
      key: 'member',
      header: 'Member',
      kind: 'grow',
      render: (m) => (
        <div className="person">
          <span className="avatar" aria-hidden="true">
            {initials(m.name || m.email)}
          </span>
          <div className="person-text">
            <span className="person-name">
              {m.name || m.email}
              {m.id === session.member_id ? <Badge>You</Badge> : null}
            </span>
            {m.name ? (
              <span className="person-email" title={m.email}>
                {m.email}
              </span>
            ) : null}
          </div>
        </div>
      ),
    },
    {
      key: 'role',
      header: 'Role',
      render: (m) =>
        manage ? (
          <RoleSelect label={`Role of ${m.email}`} value={m.role} disabled={savingRole === m.id} onChange={(role) => changeRole(m, role)} />
        ) : (
          <Badge tone={m.role === 'admin' ? 'accent' : 'neutral'}>{ROLE_LABELS[m.role]}</Badge>
        ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (m) => <MemberStatus member={m} />,
    },
    { key: 'added', header: 'Added', kind: 'nowrap', render: (m) => formatDate(m.joined_at ?? m.invited_at ?? m.created_at) },
  ];
  if (manage) {
    columns.push({
      key: 'actions',
      header: <span className="visually-hidden">Actions</span>,
      kind: 'actions',
      render: (m) => {
        if (m.id === session.member_id) return null;
        if (m.status === 'invited') {
          return (
            <span className="row">
              <Button size="sm" variant="ghost" loading={resending === m.id} onClick={() => resend(m)} aria-label={`Resend the invitation to ${m.email}`}>
                Resend
              </Button>
              <Button size="sm" variant="ghost" className="btn-danger-text" onClick={() => setRevoking(m)} aria-label={`Revoke the invitation to ${m.email}`}>
                Revoke
              </Button>
            </span>
          );
        }
        return (
          <Button size="sm" variant="ghost" className="btn-danger-text" onClick={() => setRemoving(m)} aria-label={`Remove ${m.email}`}>
            Remove
          </Button>
        );
      },
    });
  }

  return (
    <>
      <PageHeader
        title="Team"
        description="People in this workspace and what they can do."
        actions={
          manage ? (
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setInviting(true)}>
              Invite member
            </Button>
          ) : null
        }
      />
      {manage ? null : (
        <div className="page-notice">
          <Alert tone="info">
            Only admins can invite people, change roles or remove members. Your role is {ROLE_LABELS[session.workspace.role].toLowerCase()}: ask an
            admin of {session.workspace.name} if you need a change.
          </Alert>
        </div>
      )}
      {members.status === 'loading' ? <LoadingBlock label="Loading members…" /> : null}
      {members.status === 'error' ? <LoadError error={members.error} onRetry={members.reload} /> : null}
      {members.status === 'ready' && members.data.rows.length === 0 ? (
        <EmptyState icon={<UsersIcon size={24} />} title="No members yet" />
      ) : null}
      {members.status === 'ready' && members.data.rows.length > 0 ? (
        <Table caption="Team members" columns={columns} rows={members.data.rows} rowKey={(m) => m.id} />
      ) : null}

      {inviting ? (
        <InviteDialog
          onClose={() => setInviting(false)}
          onInvited={async (member) => {
            setInviting(false);
            invitationIssued(member, 'sent');
            await members.reload();
          }}
        />
      ) : null}
      {linkFor ? <InvitationLinkDialog member={linkFor} onClose={() => setLinkFor(null)} /> : null}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke the invitation to ${revoking.email}?`}
          confirmLabel="Revoke invitation"
          danger
          onClose={() => setRevoking(null)}
          onConfirm={async () => {
            await teamApi.revokeInvitation(revoking.id);
            setRevoking(null);
            notify(`The invitation to ${revoking.email} was revoked`);
            await members.reload();
          }}
        >
          <p>The link in the invitation stops working at once. You can invite {revoking.email} again later.</p>
        </ConfirmDialog>
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove ${removing.name || removing.email}?`}
          confirmLabel="Remove member"
          danger
          onClose={() => setRemoving(null)}
          onConfirm={async () => {
            await teamApi.remove(removing.id);
            setRemoving(null);
            notify(`${removing.email} was removed from the workspace`);
            await members.reload();
          }}
        >
          <p>
            {removing.email} loses access to {session.workspace.name} at once. Their API keys stop working and their sessions end.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
