import { describe, expect, it } from 'vitest';
import { type Bus, createLocalBus } from './bus';
import { Changes, tags } from './changes';
import { manualClock } from './clock';
import { GuardedCache } from './guarded-cache';

/** A local bus whose connection the test cuts and restores. */
function switchableBus() {
  const local = createLocalBus();
  const handlers = new Set<(connected: boolean) => void>();
  const bus: Omit<Bus, 'connected'> & { connected: boolean; set(connected: boolean): void } = {
    ...local,
    connected: true,
    onConnectionChange(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    set(connected) {
      bus.connected = connected;
      for (const handler of handlers) handler(connected);
    },
  };
  return bus;
}

describe('GuardedCache while the bus is down', () => {
  it('serves and stores nothing while cut off, drops what it had, and caches again once reconnected', async () => {
    const bus = switchableBus();
    const cache = new GuardedCache<string>(new Changes(bus), 60_000, 100);
    let loads = 0;
    const load = () => cache.load('k', () => [tags.demo('t')], async () => `v${++loads}`);

    expect(await load()).toBe('v1');
    expect(await load()).toBe('v1');
    expect(loads).toBe(1);

    bus.set(false);
    expect(cache.get('k')).toBeUndefined();
    expect(await load()).toBe('v2');
    expect(await load()).toBe('v3');

    bus.set(true);
    expect(cache.get('k')).toBeUndefined();
    expect(await load()).toBe('v4');
    expect(await load()).toBe('v4');
    expect(loads).toBe(4);
  });

  it('does not store a load that was in flight when the connection went or came back', async () => {
    const bus = switchableBus();
    const cache = new GuardedCache<string>(new Changes(bus), 60_000, 100);
    let release!: () => void;
    const pending = cache.load('k', () => [], () => new Promise<string>((resolve) => { release = () => resolve('stale'); }));
    bus.set(false);
    bus.set(true);
    release();
    expect(await pending).toBe('stale');
    expect(cache.get('k')).toBeUndefined();
  });

  it('a reconnect heard only afterwards (true twice) still drops everything', async () => {
    const bus = switchableBus();
    const cache = new GuardedCache<string>(new Changes(bus), 60_000, 100);
    await cache.load('k', () => [], async () => 'v');
    expect(cache.get('k')).toBe('v');
    bus.set(true);
    expect(cache.get('k')).toBeUndefined();
  });
});

describe('GuardedCache entries', () => {
  it('go when a tag they carry is announced, and at `until` by the injected clock', async () => {
    const clock = manualClock('2026-01-01T00:00:00Z');
    const changes = new Changes(createLocalBus());
    const cache = new GuardedCache<string>(changes, 60_000, 100, clock);
    let loads = 0;
    const load = () =>
      cache.load('k', () => [tags.demo('d1')], async () => `v${++loads}`, () => new Date('2026-01-01T00:00:10Z'));
    expect(await load()).toBe('v1');
    expect(await load()).toBe('v1');
    await changes.announce(tags.demo('d2'));
    expect(await load()).toBe('v1');
    await changes.announce(tags.demo('d1'));
    expect(await load()).toBe('v2');
    clock.advance(10_000);
    expect(await load()).toBe('v3');
  });

  it('does not store a load overtaken by a change announced meanwhile', async () => {
    const changes = new Changes(createLocalBus());
    const cache = new GuardedCache<string>(changes, 60_000, 100);
    const pending = cache.load('k', () => [tags.demo('d1')], async () => {
      await changes.announce(tags.share('s1'));
      return 'read before the change';
    });
    expect(await pending).toBe('read before the change');
    expect(cache.get('k')).toBeUndefined();
  });
});
