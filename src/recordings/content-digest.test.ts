import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentDigestOf, digestsOf, parseContentDigest } from './content-digest';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

describe('Content-Digest (RFC 9530)', () => {
  it('reads the sha-256 of the RFC’s own example', () => {
    // RFC 9530 §2: the digest of `{"hello": "world"}`.
    const parsed = parseContentDigest('sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:');
    expect(parsed?.['sha-256']).toEqual(sha256('{"hello": "world"}'));
    expect(contentDigestOf('{"hello": "world"}')).toBe('sha-256=:X48E9qOokqqrvdts8nOJRJN3OWDUoyWxBf7kbu9DBPE=:');
  });

  it('reads several members, ignores algorithms it does not check and parameters', () => {
    const parsed = parseContentDigest(`md5=:AAAA:, sha-512=:${createHash('sha512').update('x').digest('base64')}:;p=1 ,sha-256=:${sha256('x').toString('base64')}:`);
    expect(Object.keys(parsed ?? {}).sort()).toEqual(['sha-256', 'sha-512']);
  });

  it.each(['', 'sha-256', 'sha-256=abc', 'sha-256=:not base64!:', 'SHA-256=:AAAA:', 'md5=:AAAA:', 'sha-256=:AAAA:, garbage'])(
    'refuses %j',
    (value) => {
      expect(parseContentDigest(value)).toBeNull();
    },
  );

  it('hashes a body streamed in pieces as the whole', () => {
    const hashing = digestsOf(['sha-256', 'sha-512']);
    hashing.update(Buffer.from('{"hello": '));
    hashing.update(Buffer.from('"world"}'));
    const out = hashing.digest();
    expect(out['sha-256']).toEqual(sha256('{"hello": "world"}'));
    expect(out['sha-512']).toEqual(createHash('sha512').update('{"hello": "world"}').digest());
  });
});
