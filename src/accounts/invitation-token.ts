import { z } from 'zod';
import { randomToken, sha256Hex } from '../core/crypto';

/**
 * Invitation links carry 256 random bits; only their SHA-256 is stored, so the members table does not hold
 * live links. A plain digest (no pepper) is enough for a value this random.
 */
export function newInvitationToken(): { token: string; digest: string } {
  const token = randomToken(32);
  return { token, digest: invitationDigest(token) };
}

export const invitationDigest = (token: string) => sha256Hex(token);

export const invitationUrl = (appUrl: string, token: string) => `${appUrl.replace(/\/$/, '')}/invite/${token}`;

export const invitationTokenSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'must be the token of an invitation link')
  .meta({ description: 'The token from the invitation link (`{app_url}/invite/{token}`).' });
