import { describe, expect, it } from 'vitest';
import { displayParts, generateApiKey, isWellFormedApiKey, KEY_PREFIX } from './key-format';

describe('API key format', () => {
  it('is dsk_ + 43 base62 characters + a 6-character checksum, and different every time', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^dsk_[0-9A-Za-z]{49}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('uses the whole base62 alphabet (no bias towards a subset)', () => {
    const chars = new Set(Array.from({ length: 200 }, () => generateApiKey().slice(4, 47)).join(''));
    expect(chars.size).toBe(62);
  });

  it('rejects every single-character change, a wrong prefix, a wrong length and foreign characters', () => {
    const key = generateApiKey();
    for (let i = KEY_PREFIX.length; i < key.length; i++) {
      const replacement = key[i] === '0' ? '1' : '0';
      expect(isWellFormedApiKey(`${key.slice(0, i)}${replacement}${key.slice(i + 1)}`), `position ${i}`).toBe(false);
    }
    expect(isWellFormedApiKey(key.replace('dsk_', 'dsx_'))).toBe(false);
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}0`)).toBe(false);
    expect(isWellFormedApiKey(`${key.slice(0, 10)}-${key.slice(11)}`)).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
  });

  it('shows a prefix and the last four characters, never the secret middle', () => {
    const key = generateApiKey();
    const { prefix, lastFour } = displayParts(key);
    expect(prefix).toBe(key.slice(0, 8));
    expect(lastFour).toBe(key.slice(-4));
    expect(prefix.length + lastFour.length).toBeLessThan(key.length / 4);
  });
});
