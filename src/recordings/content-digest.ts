// RFC 9530 Content-Digest: parsing the header and hashing a step body as it streams in.
import { createHash } from 'node:crypto';

/** The RFC 9530 algorithms this server checks, by their registered names. */
export const DIGEST_ALGORITHMS = { 'sha-256': 'sha256', 'sha-512': 'sha512' } as const;
export type DigestAlgorithm = keyof typeof DIGEST_ALGORITHMS;

/**
 * The digests a `Content-Digest` field value carries (RFC 9530: a Structured Fields dictionary of byte
 * sequences, `sha-256=:<base64>:`), for the algorithms above; others are ignored. Null when the value is
 * not a dictionary of that form or names none of them.
 *
 * @example
 * parseContentDigest('sha-256=:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=:')
 * // → { 'sha-256': <Buffer e3 b0 c4 ...> }
 */
export function parseContentDigest(value: string): Partial<Record<DigestAlgorithm, Buffer>> | null {
  const found: Partial<Record<DigestAlgorithm, Buffer>> = {};
  for (const member of value.split(',')) {
    const match = /^\s*([a-z*][a-z0-9_\-.*]*)\s*=\s*:([A-Za-z0-9+/]*={0,2}):\s*(?:;.*)?$/.exec(member);
    if (!match) return null;
    const [, key, base64] = match;
    if (key && Object.hasOwn(DIGEST_ALGORITHMS, key)) found[key as DigestAlgorithm] = Buffer.from(base64!, 'base64');
  }
  return Object.keys(found).length > 0 ? found : null;
}

/** Hashes a body as it streams past, once for each algorithm asked for. */
export function digestsOf(algorithms: DigestAlgorithm[]) {
  const hashes = algorithms.map((a) => [a, createHash(DIGEST_ALGORITHMS[a])] as const);
  return {
    update(chunk: Buffer) {
      for (const [, hash] of hashes) hash.update(chunk);
    },
    digest(): Record<string, Buffer> {
      return Object.fromEntries(hashes.map(([a, hash]) => [a, hash.digest()]));
    },
  };
}

/** The field value for a body: what a client sends. */
export function contentDigestOf(body: Buffer | string): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}
