// The one id registry: every id is `<prefix>_<ULID>`, its prefix declared here and checked by `idSchema`.
import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { z } from 'zod';

/**
 * The one registry of identifier prefixes. Ids are `<prefix>_<lowercase ULID>`: time-sortable and URL-safe.
 *
 * @example
 * ```ts
 * import { ID_PREFIXES } from './ids';
 *
 * ID_PREFIXES.demo; // 'demo'
 * ```
 */
export const ID_PREFIXES = {
  demo: 'demo',
  step: 'step',
  hotspot: 'hs',
  share: 'shr',
  member: 'mem',
  user: 'usr',
  workspace: 'ws',
  view: 'view',
  webhook: 'whk',
  event: 'evt',
  delivery: 'dlv',
  apiKey: 'key',
  oauthApp: 'app',
  session: 'ses',
  request: 'req',
  job: 'job',
  asset: 'ast',
  oauthGrant: 'grt',
  oauthToken: 'tok',
  accountToken: 'atk',
  auditEntry: 'aud',
  demoVersion: 'dver',
  recording: 'rec',
  chapter: 'chp',
  lead: 'lead',
  render: 'rnd',
  demoCheck: 'chk',
  hub: 'hub',
  hubCollection: 'hcol',
  hubEntry: 'hent',
  hubOpen: 'hopn',
  domain: 'dom',
  slackDestination: 'slk',
  slackMessage: 'slm',
  experiment: 'exp',
  experimentArm: 'arm',
  crmSync: 'crms',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/**
 * Cryptographic randomness drawn 4 KB at a time. ulid asks for one random value per character, and its
 * default source makes a call into the crypto library for each: 5% of the CPU of a simple request in the
 * benchmark, most of it spent minting request ids.
 */
function pooledRandom(): () => number {
  const pool = new Uint8Array(4096);
  let next = pool.length;
  return () => {
    if (next >= pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return pool[next++]! / 256;
  };
}

const ulid = monotonicFactory(pooledRandom());

/**
 * A new id of `kind`: `<prefix>_<ULID>`, monotonic within a millisecond.
 *
 * @example
 * ```ts
 * import { newId } from './ids';
 *
 * const id = newId('demo'); // 'demo_01jd3k7q9x8v2m4n6p0r5s7t9w'
 * ```
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${ulid(now).toLowerCase()}`;
}

const patterns = new Map<IdKind, RegExp>();

function idPattern(kind: IdKind): RegExp {
  let pattern = patterns.get(kind);
  if (!pattern) {
    pattern = new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-hjkmnp-tv-z]{26}$`);
    patterns.set(kind, pattern);
  }
  return pattern;
}

/**
 * A path or body parameter that must be an id of the given kind.
 *
 * @example
 * ```ts
 * import { z } from 'zod';
 * import { idSchema } from './ids';
 *
 * const params = z.object({ id: idSchema('demo') });
 * params.safeParse({ id: 'share_01jd3k7q9x8v2m4n6p0r5s7t9w' }).success; // false
 * ```
 */
export function idSchema(kind: IdKind) {
  return z
    .string()
    .regex(idPattern(kind), `must be a ${kind} id (${ID_PREFIXES[kind]}_...)`)
    .meta({ example: `${ID_PREFIXES[kind]}_01jd3k7q9x8v2m4n6p0r5s7t9w` });
}
