// Sending an invitation's e-mail, and recording on the member row what became of it.
import type { FastifyBaseLogger } from 'fastify';
import { invitationUrl } from '../accounts/invitation-token';
import type { AuthContext } from '../auth/permissions';
import type { Database } from '../db/client';
import type { Mailer } from '../mail/mailer';
import type { WorkspacesReader } from '../workspaces/workspaces.reader';
import { invitationMail } from './invitation-mail';
import * as repo from './team.repo';
import type { MemberRow } from './team.repo';

/** What team asks of the workspaces domain: the workspace's name for the invitation e-mail. */
export type TeamWorkspaces = Pick<WorkspacesReader, 'find'>;

/** What sending an invitation is built from: the mailer, APP_URL, a logger and the workspaces port. */
export interface InvitationDeliveryDeps {
  database: Pick<Database, 'db'>;
  mailer: Mailer;
  appUrl: string;
  log: Pick<FastifyBaseLogger, 'warn'>;
  workspaces: TeamWorkspaces;
}

/** An invitation just issued: the member row, and the link when no e-mail will carry it. */
export interface IssuedInvitation {
  member: MemberRow;
  name: string | null;
  /** Only when e-mail is not configured: the admin passes the link on. */
  url?: string;
}

/**
 * E-mails the link and records what happened on the member row, where the admin sees a failure. The
 * invitation stands either way: the admin can resend it.
 *
 * @example
 * const issue = createInvitationDelivery({ database, mailer, appUrl, log, workspaces });
 * return issue(auth, member, token); // { member, name: null, url? }
 */
export function createInvitationDelivery({ database, mailer, appUrl, log, workspaces }: InvitationDeliveryDeps) {
  const { db } = database;

  async function deliver(auth: AuthContext, member: MemberRow, token: string): Promise<MemberRow> {
    const workspace = await workspaces.find(auth.workspaceId);
    const inviter = await repo.findInviter(db, auth.workspaceId, auth.memberId);
    const mail = invitationMail({
      to: member.email,
      url: invitationUrl(appUrl, token),
      workspaceName: workspace?.name ?? 'a workspace',
      inviter: { name: inviter?.name ?? '', email: inviter?.email ?? 'An admin' },
      role: member.role,
      expiresAt: member.inviteExpiresAt!,
    });
    let outcome: Pick<MemberRow, 'inviteEmailStatus' | 'inviteEmailError'>;
    try {
      await mailer.send(mail);
      outcome = { inviteEmailStatus: mailer.delivers ? 'sent' : 'not_configured', inviteEmailError: null };
    } catch (error) {
      log.warn({ err: error, member_id: member.id }, 'invitation e-mail not sent');
      outcome = { inviteEmailStatus: 'failed', inviteEmailError: String((error as Error).message ?? error).slice(0, 300) };
    }
    return (await repo.updateMember(db, member.id, outcome)) ?? member;
  }

  return async function issue(auth: AuthContext, member: MemberRow, token: string): Promise<IssuedInvitation> {
    const delivered = await deliver(auth, member, token);
    return { member: delivered, name: null, url: mailer.delivers ? undefined : invitationUrl(appUrl, token) };
  };
}

/** Sends an issued invitation (see createInvitationDelivery). */
export type IssueInvitation = ReturnType<typeof createInvitationDelivery>;
