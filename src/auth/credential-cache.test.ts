import { describe, expect, it } from 'vitest';
import { createLocalBus } from '../core/bus';
import { Changes, tags } from '../core/changes';
import { type CachedCredential, CredentialCache } from './credential-cache';

const entry: CachedCredential = {
  auth: {
    kind: 'api_key',
    credentialId: 'key_1',
    userId: 'usr_1',
    memberId: 'mem_1',
    workspaceId: 'ws_1',
    role: 'admin',
    scopes: new Set(['team:read'] as const),
  },
  expiresAt: null,
  lastUsedAt: null,
};

describe('CredentialCache', () => {
  it('does not keep a load that was in flight while the credential was revoked', async () => {
    const cache = new CredentialCache(new Changes(createLocalBus()));
    let release!: () => void;
    const slow = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A request misses the cache and reads the key (still live) from the database, slowly...
    const inFlight = cache.resolve('digest', new Date(), async () => {
      await slow;
      return entry;
    });
    // ...while the key is revoked and its tag invalidated...
    await cache.invalidate(tags.credential('key_1'));
    release();
    // ...that request may still pass (it began before the revocation), but nothing after it may.
    await inFlight;
    expect(await cache.resolve('digest', new Date(), async () => null)).toBeNull();
  });

  it('keeps a load that no change overlapped', async () => {
    const cache = new CredentialCache(new Changes(createLocalBus()));
    await cache.resolve('digest', new Date(), async () => entry);
    expect(await cache.resolve('digest', new Date(), async () => null)).toEqual(entry);
  });
});
