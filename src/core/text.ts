import { z } from 'zod';

export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

const hasNoNul = (value: string) => !value.includes('\u0000');

/**
 * Every string a request carries goes through here (or `withoutNul` for e-mail and URL formats):
 * PostgreSQL refuses NUL in text, so a NUL that reached a query would be a 500 instead of a 400 that
 * names the field.
 */
export function text() {
  return z.string().refine(hasNoNul, NUL_MESSAGE);
}

/** The same rule on a string format (z.email(), z.url()) that does not itself refuse NUL. */
export function withoutNul<T extends z.ZodType<string>>(schema: T): T {
  return schema.refine(hasNoNul, NUL_MESSAGE) as T;
}
