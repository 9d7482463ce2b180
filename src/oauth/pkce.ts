// PKCE (RFC 7636), S256 only: ties an authorization code to the client that asked for it; required of public clients, optional for confidential ones.
import { createHash } from 'node:crypto';
import { safeEqual } from '../core/crypto';

/** RFC 7636 code_verifier: 43 to 128 characters of [A-Za-z0-9-._~]. */
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the base64url SHA-256 of the verifier: 43 characters. */
export const CODE_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** The S256 code challenge of a verifier (RFC 7636 §4.2). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Constant-time check of a verifier against the S256 challenge stored with the code. */
export function verifyPkce(challenge: string, verifier: string): boolean {
  return CODE_VERIFIER.test(verifier) && safeEqual(s256(verifier), challenge);
}
