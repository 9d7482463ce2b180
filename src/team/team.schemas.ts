import { z } from 'zod';
import { email } from '../accounts/accounts.schemas';
import type { MemberRow } from '../accounts/accounts.repo';
import { ROLES } from '../auth/permissions';
import { idSchema } from '../core/ids';
import { iso, timestamp } from '../core/time';

export const memberSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string().nullable(),
    role: z.enum(ROLES),
    status: z.enum(['active', 'invited']).meta({ description: '`invited` until the person signs up or signs in.' }),
    user_id: z.string().nullable(),
    invited_by: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'TeamMember' });

export const inviteBody = z.object({ email, role: z.enum(ROLES) }).strict();
export const roleBody = z.object({ role: z.enum(ROLES) }).strict();
export const memberParams = z.object({ id: idSchema('member') });

export function toMember(row: MemberRow, name: string | null) {
  return {
    id: row.id,
    email: row.email,
    name: name || null,
    role: row.role,
    status: row.status,
    user_id: row.userId,
    invited_by: row.invitedById,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}
