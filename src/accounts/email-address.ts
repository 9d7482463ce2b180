/**
 * The one form an address is stored and compared in: e-mail addresses compare case-insensitively.
 *
 * @example
 * normaliseEmail(' Ada@Example.COM ') // 'ada@example.com'
 */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();
