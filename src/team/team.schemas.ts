// Request and response schemas of team.routes.ts (members and their invitations).
import { z } from 'zod';
import { email } from '../accounts/accounts.schemas';
import { ROLES } from '../auth/permissions';
import { idSchema } from '../core/ids';
import { iso, timestamp } from '../core/time';
import type { MemberRow } from './team.repo';

const invitationSchema = z
  .object({
    expires_at: timestamp.meta({ description: 'The link stops working then; resend for a new one.' }),
    expired: z.boolean(),
    email_status: z
      .enum(['sent', 'failed', 'not_configured'])
      .nullable()
      .meta({
        description:
          '`sent`: handed to the SMTP server. `failed`: sending failed (see `email_error`; resend to try again). ' +
          '`not_configured`: no SMTP server is set up, so the link was only logged and returned to the inviting admin.',
      }),
    email_error: z.string().nullable(),
    url: z.string().optional().meta({
      description:
        'The invitation link, only in the answer to an invitation or a resend and only when e-mail is not ' +
        'configured: pass it on yourself. It is never shown again (only its digest is stored).',
    }),
  })
  .meta({ id: 'Invitation' });

export const memberSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(ROLES),
    status: z
      .enum(['active', 'invited'])
      .meta({ description: '`invited` until the person follows the invitation link and signs in or signs up.' }),
    user_id: z.string().nullable(),
    invited_by: z.string().nullable().meta({ description: 'The member who sent (or last resent) the invitation.' }),
    invited_at: timestamp.nullable().meta({ description: 'When the invitation was (last) sent; null for a workspace creator.' }),
    joined_at: timestamp.nullable(),
    invitation: invitationSchema.nullable().meta({ description: 'The pending invitation; null once joined.' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({
    id: 'TeamMember',
    examples: [
      {
        id: 'mem_01jd3k6z1a4b7c0d3e6f9g2h5j',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        role: 'admin',
        status: 'active',
        user_id: 'usr_01jd3k7q9x8v2m4n6p0r5s7t9w',
        invited_by: null,
        invited_at: null,
        joined_at: '2026-11-20T09:12:00.000Z',
        invitation: null,
        created_at: '2026-11-20T09:12:00.000Z',
        updated_at: '2026-11-20T09:12:00.000Z',
      },
      {
        id: 'mem_01jd3m0a2c4e6g8j0k2m4n6p8q',
        email: 'grace@acme.com',
        name: null,
        role: 'editor',
        status: 'invited',
        user_id: null,
        invited_by: 'mem_01jd3k6z1a4b7c0d3e6f9g2h5j',
        invited_at: '2026-11-26T10:00:00.000Z',
        joined_at: null,
        invitation: { expires_at: '2026-12-03T10:00:00.000Z', expired: false, email_status: 'sent', email_error: null },
        created_at: '2026-11-26T10:00:00.000Z',
        updated_at: '2026-11-26T10:00:00.000Z',
      },
    ],
  });

export const inviteBody = z
  .object({ email, role: z.enum(ROLES) })
  .strict()
  .meta({ examples: [{ email: 'grace@acme.com', role: 'editor' }] });
export const roleBody = z
  .object({ role: z.enum(ROLES) })
  .strict()
  .meta({ examples: [{ role: 'viewer' }] });
export const memberParams = z.object({ id: idSchema('member') });

export function toMember(row: MemberRow, name: string | null, now: Date, url?: string) {
  return {
    id: row.id,
    email: row.email,
    name: name || null,
    role: row.role,
    status: row.status,
    user_id: row.userId,
    invited_by: row.invitedById,
    invited_at: iso(row.invitedAt),
    joined_at: iso(row.joinedAt),
    invitation:
      row.status === 'invited'
        ? {
            // Invitations from before links had tokens have no expiry: they are dead until resent.
            expires_at: iso(row.inviteExpiresAt ?? row.invitedAt ?? row.createdAt),
            expired: !row.inviteExpiresAt || row.inviteExpiresAt <= now,
            email_status: row.inviteEmailStatus,
            email_error: row.inviteEmailError,
            ...(url ? { url } : {}),
          }
        : null,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
