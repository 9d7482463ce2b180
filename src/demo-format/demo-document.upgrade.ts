// Older demo.json versions, brought up to the current one before validation: one step per version, in a chain.
import { AppError } from '../core/errors';
import { FORMAT_NAME, FORMAT_VERSION } from './demo-document.schemas';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Version 0: the linear demos of the contract, before chapters, step kinds and stories. Steps are named by
 * their `number` (1-based) instead of an `id`; a hotspot's action is flat (`action_type`, `action_target`),
 * and a `goto` targets a step number. Version 1 gives each step the id `step-<number>` and each hotspot an
 * `action: {type, target}` whose `goto` names that id. Anything the upgrade does not recognise is left as it
 * is, so that validation of the result names it.
 */
function v0ToV1(doc: Json): Json {
  const steps = Array.isArray(doc.steps) ? doc.steps : [];
  const idOf = (n: unknown, i: number) => `step-${typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : i + 1}`;
  return {
    ...doc,
    version: 1,
    steps: steps.map((s, i) => {
      if (!isObject(s)) return s;
      const { number, ...rest } = s;
      const hotspots = Array.isArray(s.hotspots) ? s.hotspots : [];
      return {
        id: idOf(number, i),
        ...rest,
        hotspots: hotspots.map((h) => {
          if (!isObject(h) || 'action' in h) return h;
          const { action_type, action_target, ...other } = h;
          const type = action_type ?? 'next';
          const target = type === 'goto' && typeof action_target === 'number' ? `step-${action_target}` : (action_target ?? null);
          return { ...other, action: { type, target } };
        }),
      };
    }),
  };
}

/** Each entry upgrades a document of version n (its index) to n + 1. */
const UPGRADES: Array<(doc: Json) => Json> = [v0ToV1];

/**
 * A parsed demo.json brought to {@link FORMAT_VERSION}: a document without `version` is version 0. One newer than
 * this server knows is refused (upgrade the server), as is anything that is not a demo file.
 *
 * @example
 * ```ts
 * upgradeDocument({ format: 'demoshare-demo', title: 'T', steps: [{ number: 1, hotspots: [{ x: 0, y: 0, width: 1, height: 1, action_type: 'goto', action_target: 1 }] }] });
 * // { upgraded: {..., version: 1, steps: [{ id: 'step-1', hotspots: [{ ..., action: { type: 'goto', target: 'step-1' } }] }]}, from: 0 }
 * ```
 */
export function upgradeDocument(raw: unknown): { upgraded: unknown; from: number } {
  if (!isObject(raw)) {
    throw new AppError('validation_error', 'demo.json must be a JSON object', { details: [{ field: '(root)', message: 'must be an object' }] });
  }
  if (raw.format !== FORMAT_NAME) {
    throw new AppError('validation_error', `demo.json is not a demo file: its format must be "${FORMAT_NAME}"`, {
      details: [{ field: 'format', message: `must be "${FORMAT_NAME}"` }],
    });
  }
  const from = raw.version === undefined ? 0 : raw.version;
  if (typeof from !== 'number' || !Number.isInteger(from) || from < 0) {
    throw new AppError('validation_error', 'The version of demo.json must be a whole number', {
      details: [{ field: 'version', message: `must be a whole number from 0 to ${FORMAT_VERSION}` }],
    });
  }
  if (from > FORMAT_VERSION) {
    throw new AppError('validation_error', `demo.json is version ${from}: this server reads versions up to ${FORMAT_VERSION} (upgrade it)`, {
      details: [{ field: 'version', message: `must be at most ${FORMAT_VERSION}` }],
    });
  }
  let doc: Json = raw;
  for (let v = from; v < FORMAT_VERSION; v++) doc = UPGRADES[v]!(doc);
  return { upgraded: doc, from };
}
