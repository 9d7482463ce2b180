import { describe, expect, it } from 'vitest';
import { scrub } from './audit-recorder';

describe('scrub (what reaches changes)', () => {
  it('drops keys that look like secrets, at any depth, and keeps has_* flags', () => {
    expect(
      scrub({
        secret: 'whsec_x',
        client_secret: 'dss_x',
        password: 'p',
        password_hash: 'h',
        digest: 'd',
        key: 'dsk_x',
        refresh_token: 'r',
        has_password: true,
        nested: { token: 't', name: 'kept' },
        role: { from: 'editor', to: 'viewer' },
      }),
    ).toEqual({ has_password: true, nested: { name: 'kept' }, role: { from: 'editor', to: 'viewer' } });
  });

  it('cuts long strings and lists, and writes dates as ISO strings', () => {
    const out = scrub({ long: 'x'.repeat(1000), many: Array.from({ length: 80 }, (_, i) => i), at: new Date(0) }) as Record<
      string,
      unknown
    >;
    expect((out.long as string).length).toBe(301);
    expect(out.many).toHaveLength(50);
    expect(out.at).toBe('1970-01-01T00:00:00.000Z');
  });

  it('never cuts a character in half (a lone surrogate is refused by jsonb)', () => {
    const out = scrub({ uri: `${'a'.repeat(299)}🙂${'b'.repeat(10)}` }) as { uri: string };
    expect(out.uri).toBe(`${'a'.repeat(299)}…`);
    expect((scrub(`${'a'.repeat(298)}🙂b`) as string).endsWith('🙂…')).toBe(true);
  });
});
