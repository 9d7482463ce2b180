// The invitation e-mail itself: subject, text and HTML.
import { escapeHtml } from '../core/html';
import type { Mail } from '../mail/mailer';
import type { Role } from '../auth/permissions';

export interface InvitationMailInput {
  to: string;
  url: string;
  workspaceName: string;
  inviter: { name: string; email: string };
  role: Role;
  expiresAt: Date;
}

const ARTICLE: Record<Role, string> = { admin: 'an admin', editor: 'an editor', viewer: 'a viewer' };

/** The invitation e-mail, plain text and HTML, naming the workspace and who sent it. */
export function invitationMail(input: InvitationMailInput): Mail {
  const inviter = input.inviter.name ? `${input.inviter.name} (${input.inviter.email})` : input.inviter.email;
  const expires = input.expiresAt.toUTCString();
  const text = [
    `${inviter} invited you to join ${input.workspaceName} on Demoshare as ${ARTICLE[input.role]}.`,
    '',
    `Accept the invitation: ${input.url}`,
    '',
    `Sign in or create an account with ${input.to} to accept. The link works once and expires on ${expires}.`,
    'If you did not expect this invitation, ignore this e-mail: nothing happens unless you follow the link.',
    '',
  ].join('\n');
  const e = escapeHtml;
  const html = `<!doctype html>
<html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2430;line-height:1.5">
<p><strong>${e(inviter)}</strong> invited you to join <strong>${e(input.workspaceName)}</strong> on Demoshare as ${ARTICLE[input.role]}.</p>
<p><a href="${e(input.url)}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">Accept the invitation</a></p>
<p style="color:#5b6275;font-size:14px">Or open this address: <a href="${e(input.url)}">${e(input.url)}</a></p>
<p style="color:#5b6275;font-size:14px">Sign in or create an account with ${e(input.to)} to accept. The link works once and expires on ${e(expires)}.
If you did not expect this invitation, ignore this e-mail: nothing happens unless you follow the link.</p>
</body></html>`;
  return { to: input.to, subject: `${input.inviter.name || input.inviter.email} invited you to ${input.workspaceName} on Demoshare`, text, html };
}
