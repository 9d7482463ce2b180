import { describe, expect, it } from 'vitest';
import { TaggedCache } from './cache';

describe('TaggedCache', () => {
  it('expires entries after the TTL, by the given clock', () => {
    let now = 1_000;
    const cache = new TaggedCache<string>(100, 10, () => now);
    cache.set('a', 'A');
    now += 99;
    expect(cache.get('a')).toBe('A');
    now += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  it('ends an entry at its own expiry when that comes before the TTL', () => {
    let now = 1_000;
    const cache = new TaggedCache<string>(100, 10, () => now);
    cache.set('early', 'E', [], 1_050);
    cache.set('late', 'L', [], 5_000);
    now = 1_050;
    expect(cache.get('early')).toBeUndefined();
    expect(cache.get('late')).toBe('L');
    now = 1_100;
    expect(cache.get('late')).toBeUndefined();
  });

  it('drops every entry of a tag, and only those', () => {
    const cache = new TaggedCache<number>(60_000);
    cache.set('k1', 1, ['member:1', 'workspace:w']);
    cache.set('k2', 2, ['member:2', 'workspace:w']);
    cache.set('k3', 3, ['member:3']);
    cache.invalidateTag('member:1');
    expect([cache.get('k1'), cache.get('k2'), cache.get('k3')]).toEqual([undefined, 2, 3]);
    cache.invalidateTag('workspace:w');
    expect([cache.get('k2'), cache.get('k3')]).toEqual([undefined, 3]);
    cache.invalidateTag('unknown');
    expect(cache.get('k3')).toBe(3);
  });

  it('forgets old tags when an entry is replaced', () => {
    const cache = new TaggedCache<number>(60_000);
    cache.set('k', 1, ['old']);
    cache.set('k', 2, ['new']);
    cache.invalidateTag('old');
    expect(cache.get('k')).toBe(2);
    cache.invalidateTag('new');
    expect(cache.get('k')).toBeUndefined();
  });

  it('evicts the oldest entry beyond maxEntries', () => {
    const cache = new TaggedCache<number>(60_000, 3);
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) cache.set(k, i, [`t:${k}`]);
    expect(cache.get('a')).toBeUndefined();
    expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([1, 2, 3]);
    // The evicted entry's tag is gone too: invalidating it touches nothing else.
    cache.invalidateTag('t:a');
    expect(cache.get('b')).toBe(1);
  });

  it('clear() empties it', () => {
    const cache = new TaggedCache<number>(60_000);
    cache.set('k', 1, ['t']);
    cache.clear();
    expect(cache.get('k')).toBeUndefined();
  });
});
