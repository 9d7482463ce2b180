// Tokens of e-mailed links (invitations, verification, reset): 256 random bits, stored as SHA-256 only.
import { z } from 'zod';
import { randomToken, sha256Hex } from '../core/crypto';

/**
 * Links e-mailed to people (invitations, verification, password reset) carry 256 random bits; only their
 * SHA-256 is stored, so a copy of the database holds no live link. A plain digest (no pepper) is enough for
 * a value this random.
 */
export function newLinkToken(): { token: string; digest: string } {
  const token = randomToken(32);
  return { token, digest: linkTokenDigest(token) };
}

export const linkTokenDigest = (token: string) => sha256Hex(token);

/** `{APP_URL}/{page}/{token}`: the web-app page that takes the token from its address. */
export const linkUrl = (appUrl: string, page: string, token: string) => `${appUrl.replace(/\/$/, '')}/${page}/${token}`;

export const linkTokenSchema = (what: string) => z.string().regex(/^[A-Za-z0-9_-]{43}$/, `must be the token of ${what}`);
