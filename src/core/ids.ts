import { monotonicFactory } from 'ulid';
import { z } from 'zod';

/** The one registry of identifier prefixes. Ids are `<prefix>_<lowercase ULID>`: time-sortable and URL-safe. */
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
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const ulid = monotonicFactory();

export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${ulid(now).toLowerCase()}`;
}

export function isId(kind: IdKind, value: string): boolean {
  return idPattern(kind).test(value);
}

function idPattern(kind: IdKind): RegExp {
  return new RegExp(`^${ID_PREFIXES[kind]}_[0-9a-hjkmnp-tv-z]{26}$`);
}

/** A path or body parameter that must be an id of the given kind. */
export function idSchema(kind: IdKind) {
  return z
    .string()
    .regex(idPattern(kind), `must be a ${kind} id (${ID_PREFIXES[kind]}_...)`)
    .meta({ example: `${ID_PREFIXES[kind]}_01jd3k7q9x8v2m4n6p0r5s7t9w` });
}
