// Wrong passwords counted per address, so guessing one account's password stops whatever the IP.
import { AppError } from '../core/errors';
import type { RateLimits } from '../core/rate-limit';
import { normaliseEmail } from './email-address';

const WINDOW_SECONDS = 15 * 60;

/** A wrong current password (changing the password or the address): counted like a failed sign-in. */
export class WrongPasswordError extends AppError {
  constructor() {
    super('invalid_request', 'The current password is wrong', {
      details: [{ field: 'current_password', message: 'is wrong' }],
    });
  }
}

/**
 * Wrong passwords counted per address (so per account), whichever IP they come from: guessing one
 * account's password from many addresses stops after `limit` failures in 15 minutes. An unknown address
 * is counted the same way, so the 429 says nothing about whether an account has it.
 *
 * Each attempt takes its point before the password is checked, in the one atomic increment of the budget
 * (in memory, or in Redis): a check of the count followed by a hash that takes tens of milliseconds let
 * every guess sent together through. So at most `limit` passwords are ever checked in a window, however
 * many arrive at once; the point is given back when the attempt fails for another reason.
 */
export function signInFailures(rateLimits: RateLimits, limit: number) {
  const policy = { points: limit, duration: WINDOW_SECONDS };
  const keyOf = (email: string) => `addr:${normaliseEmail(email)}`;
  // Sign-in answers every wrong e-mail or password with the one 401.
  const isWrongPassword = (error: unknown) =>
    error instanceof WrongPasswordError || (error instanceof AppError && error.code === 'unauthorized');

  return {
    /** Runs a password check for `email`: refused while over budget, counted unless it succeeds, cleared when it does. */
    async guard<T>(email: string, attempt: () => Promise<T>): Promise<T> {
      const key = keyOf(email);
      await rateLimits.consume('sign-in-failures', policy, key);
      let result: T;
      try {
        result = await attempt();
      } catch (error) {
        if (!isWrongPassword(error)) await rateLimits.refund('sign-in-failures', policy, key).catch(() => {});
        throw error;
      }
      await rateLimits.reset('sign-in-failures', policy, key);
      return result;
    },
  };
}
