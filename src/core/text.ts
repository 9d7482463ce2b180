// The rule every request string keeps: no NUL and no lone surrogate, which PostgreSQL would refuse with a 500.
import { z } from 'zod';

/**
 * The 400 message of a string holding NUL.
 *
 * @example
 * ```ts
 * import { NUL_MESSAGE, text } from './text';
 *
 * text().safeParse('a\u0000b').error?.issues[0]?.message === NUL_MESSAGE; // true
 * ```
 */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

const hasNoNul = (value: string) => !value.includes('\u0000');

/**
 * The 400 message of a string holding half a surrogate pair.
 *
 * @example
 * ```ts
 * import { LONE_SURROGATE_MESSAGE, text } from './text';
 *
 * text().safeParse('\ud800').error?.issues[0]?.message === LONE_SURROGATE_MESSAGE; // true
 * ```
 */
export const LONE_SURROGATE_MESSAGE = 'must be valid Unicode (half of a surrogate pair stands alone)';

// A lone UTF-16 surrogate ("\ud800" in JSON) cannot be stored in jsonb (an audit entry, an event): a workspace name
// of one was a 500 (found by the fuzzer). Held to the same rule as NUL: a 400 naming the field.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isWellFormed = (value: string) => !LONE_SURROGATE.test(value);

/**
 * Every string a request carries goes through here (or `withoutNul` for e-mail and URL formats):
 * PostgreSQL refuses NUL in text (and lone surrogates in jsonb), so one that reached a query would be a
 * 500 instead of a 400 that names the field.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { text } from './text';
 *
 * const body = z.object({ title: text().min(1).max(200) });
 * ```
 */
export function text() {
  return z.string().refine(hasNoNul, NUL_MESSAGE).refine(isWellFormed, LONE_SURROGATE_MESSAGE);
}

/**
 * The same rule on a string format (z.email(), z.url()) that does not itself refuse NUL.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { withoutNul } from './text';
 *
 * const body = z.object({ email: withoutNul(z.email()) });
 * ```
 */
export function withoutNul<T extends z.ZodType<string>>(schema: T): T {
  return schema.refine(hasNoNul, NUL_MESSAGE).refine(isWellFormed, LONE_SURROGATE_MESSAGE) as T;
}

/**
 * An http(s) address given to the API (a page to capture, a call to action's link): at most 2,048
 * characters, no NUL.
 *
 * @example
 * ```ts
 * import { httpUrl } from '../core/text';
 *
 * httpUrl.parse('https://example.com/pricing'); // 'https://example.com/pricing'
 * httpUrl.safeParse('ftp://example.com').success; // false
 * ```
 */
export const httpUrl = withoutNul(z.url({ protocol: /^https?$/ })).max(2048).meta({ example: 'https://example.com/pricing' });
