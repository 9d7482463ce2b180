import { z } from 'zod';
import { ROLES } from '../auth/permissions';
import { idSchema } from '../core/ids';
import { iso, timestamp } from '../core/time';
import type { MemberRow, UserRow, WorkspaceRow } from './accounts.repo';

export const email = z.email().max(254).meta({ example: 'ada@example.com' });
export const password = z
  .string()
  .min(10, 'must be at least 10 characters')
  .max(256, 'must be at most 256 characters');

export const signupBody = z
  .object({
    email,
    password,
    name: z.string().trim().max(120).optional(),
    workspace_name: z.string().trim().min(1).max(120).optional(),
  })
  .strict();

export const loginBody = z
  .object({
    email: z.string().max(254),
    password: z.string().max(256),
    workspace_id: idSchema('workspace')
      .optional()
      .meta({ description: 'Sign in to this workspace (default: the oldest membership).' }),
  })
  .strict();

export const switchWorkspaceBody = z.object({ workspace_id: idSchema('workspace') }).strict();

export const userSchema = z
  .object({ id: z.string(), email: z.string(), name: z.string(), created_at: timestamp })
  .meta({ id: 'User' });

export const workspaceSchema = z
  .object({ id: z.string(), name: z.string(), role: z.enum(ROLES), created_at: timestamp })
  .meta({ id: 'Workspace' });

export const sessionSchema = z
  .object({
    user: userSchema,
    workspace: workspaceSchema,
    member_id: z.string(),
    csrf_token: z.string().meta({ description: 'Echo in the X-CSRF-Token header on unsafe requests.' }),
    workspaces: z.array(workspaceSchema),
  })
  .meta({ id: 'Session' });

export const toUser = (u: UserRow) => ({ id: u.id, email: u.email, name: u.name, created_at: iso(u.createdAt) });

export const toWorkspace = (w: WorkspaceRow, m: MemberRow) => ({
  id: w.id,
  name: w.name,
  role: m.role,
  created_at: iso(w.createdAt),
});
