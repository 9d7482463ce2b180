// Request and response schemas of account.routes.ts (one's own account, e-mailed links).
import { z } from 'zod';
import { idSchema } from '../core/ids';
import { text } from '../core/text';
import { iso, timestamp } from '../core/time';
import { email, password } from './accounts.schemas';
import { linkTokenSchema } from './link-token';

/** A signed-in user's own account: profile, password, address, sessions; and the links e-mailed to them. */

const currentPassword = text().max(256).meta({ description: 'The password the account has now.' });

export const passwordResetRequestBody = z
  .object({ email: text().max(254) })
  .strict()
  .meta({ examples: [{ email: 'ada@example.com' }] });

export const passwordResetBody = z
  .object({
    token: linkTokenSchema('a password-reset link').meta({
      description: 'The token from the e-mailed link (`{app_url}/reset-password/{token}`).',
    }),
    password,
  })
  .strict()
  .meta({ examples: [{ token: 'Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gA_e2Ku7Ro-Qw', password: 'a-new-long-passphrase' }] });

export const verifyEmailBody = z
  .object({
    token: linkTokenSchema('a verification link').meta({
      description: 'The token from the e-mailed link (`{app_url}/verify-email/{token}`).',
    }),
  })
  .strict()
  .meta({ examples: [{ token: 'Jx4f0qN2s8dW7kLp1vYb3cR6tZ9mH5gA_e2Ku7Ro-Qw' }] });

export const profileBody = z
  .object({ name: text().trim().max(120).optional() })
  .strict()
  .meta({ examples: [{ name: 'Ada King' }] });

export const changePasswordBody = z
  .object({ current_password: currentPassword, new_password: password })
  .strict()
  .meta({ examples: [{ current_password: 'correct-horse-battery', new_password: 'a-new-long-passphrase' }] });

export const changeEmailBody = z
  .object({ email, current_password: currentPassword })
  .strict()
  .meta({ examples: [{ email: 'ada@analytical-engines.com', current_password: 'correct-horse-battery' }] });

export const sessionParams = z.object({ id: idSchema('session') });

/** The same words whatever the address: they must not say whether an account has it. */
export const acceptedSchema = z
  .object({ message: z.string() })
  .meta({
    id: 'Accepted',
    description: 'The request was taken; what follows happens by e-mail.',
    examples: [{ message: 'If an account has this address, a link is on its way.' }],
  });

export const passwordChangedSchema = z
  .object({ ended_sessions: z.number().int().min(0).meta({ description: 'Other sessions of the account that were signed out.' }) })
  .meta({ id: 'PasswordChanged', examples: [{ ended_sessions: 2 }] });

export const endedSessionsSchema = z
  .object({ ended_sessions: z.number().int().min(0) })
  .meta({ id: 'EndedSessions', examples: [{ ended_sessions: 3 }] });

export const accountSessionSchema = z
  .object({
    id: z.string(),
    device: z.string().meta({ description: 'Browser and platform read from the user agent, e.g. "Firefox on Linux".' }),
    ip: z.string().nullable().meta({ description: 'The address the session signed in from.' }),
    user_agent: z.string().nullable(),
    created_at: timestamp.meta({ description: 'When the session signed in.' }),
    last_seen_at: timestamp.nullable().meta({ description: 'Last request, to within five minutes.' }),
    expires_at: timestamp,
    current: z.boolean().meta({ description: 'True for the session making this request.' }),
  })
  .meta({
    id: 'AccountSession',
    examples: [
      {
        id: 'ses_01jd3k8a2b4c6d8e0f2g4h6j8k',
        device: 'Firefox on Linux',
        ip: '203.0.113.24',
        user_agent: 'Mozilla/5.0 (X11; Linux x86_64; rv:132.0) Gecko/20100101 Firefox/132.0',
        created_at: '2026-11-24T08:30:00.000Z',
        last_seen_at: '2026-11-25T16:05:00.000Z',
        expires_at: '2026-12-24T08:30:00.000Z',
        current: true,
      },
    ],
  });

export const toAccountSession = (
  row: {
    id: string;
    device: string;
    ip: string | null;
    userAgent: string | null;
    createdAt: Date;
    lastSeenAt: Date | null;
    expiresAt: Date;
  },
  currentId: string,
) => ({
  id: row.id,
  device: row.device,
  ip: row.ip,
  user_agent: row.userAgent,
  created_at: iso(row.createdAt),
  last_seen_at: iso(row.lastSeenAt),
  expires_at: iso(row.expiresAt),
  current: row.id === currentId,
});
