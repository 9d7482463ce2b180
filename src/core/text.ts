import { z } from 'zod';

export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

const hasNoNul = (value: string) => !value.includes('\u0000');

export const LONE_SURROGATE_MESSAGE = 'must be valid Unicode (half of a surrogate pair stands alone)';

// A lone UTF-16 surrogate ("\ud800" in JSON) cannot be stored in jsonb (an audit entry, an event): a workspace name
// of one was a 500 (found by the fuzzer). Held to the same rule as NUL: a 400 naming the field.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isWellFormed = (value: string) => !LONE_SURROGATE.test(value);

/**
 * Every string a request carries goes through here (or `withoutNul` for e-mail and URL formats):
 * PostgreSQL refuses NUL in text (and lone surrogates in jsonb), so one that reached a query would be a
 * 500 instead of a 400 that names the field.
 */
export function text() {
  return z.string().refine(hasNoNul, NUL_MESSAGE).refine(isWellFormed, LONE_SURROGATE_MESSAGE);
}

/** The same rule on a string format (z.email(), z.url()) that does not itself refuse NUL. */
export function withoutNul<T extends z.ZodType<string>>(schema: T): T {
  return schema.refine(hasNoNul, NUL_MESSAGE).refine(isWellFormed, LONE_SURROGATE_MESSAGE) as T;
}
