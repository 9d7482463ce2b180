import { describe, expect, it } from 'vitest';
import { createLocalBus } from '../core/bus';
import { Changes } from '../core/changes';
import { sha256Hex } from '../core/crypto';
import { AppError } from '../core/errors';
import { createIngestion } from './ingestion';
import { type LinkState, ViewerCache } from './viewer-cache';
import type { ViewerSessionRow } from './viewer.repo';

// The intake's rules are decided before anything is stored: with the link and the session in the cache,
// a refused batch reaches neither the database nor the link counters (both throw if touched).
const share = {
  id: 'shr_1',
  demoId: 'demo_1',
  workspaceId: 'ws_1',
  revokedAt: null,
  expiresAt: null,
  passwordHash: null,
  requireIdentification: false,
};
const session = { id: sha256Hex('cookie'), shareId: 'shr_1', demoId: 'demo_1', workspaceId: 'ws_1', expiresAt: new Date(Date.now() + 3_600_000) };
const visitor = { ip: '203.0.113.1', userAgent: null, referrer: null };

async function ingestion() {
  const cache = new ViewerCache(new Changes(createLocalBus()));
  const link = { share, workspace: { id: 'ws_1' }, demoStatus: 'published', version: 1, stepCount: 3 } as unknown as LinkState;
  await cache.links.load('token', () => [], async () => link);
  await cache.sessions.load(session.id, () => [], async () => session as unknown as ViewerSessionRow);
  const untouched = (): never => {
    throw new Error('a refused batch must store nothing');
  };
  return createIngestion({
    database: { kind: 'pglite', get db(): never { return untouched(); } },
    clock: { now: () => new Date() },
    cache,
    log: { warn: untouched },
    countLinkViews: untouched,
  });
}

describe('the intake of a batch of viewer events', () => {
  it('refuses a batch naming a step the demo does not have, naming the event, and stores none of it', async () => {
    const intake = await ingestion();
    const events = [
      { id: 'a', type: 'step_reached' as const, stepNumber: 3 },
      { id: 'b', type: 'step_reached' as const, stepNumber: 4 },
    ];
    const error = await intake.record('token', 'cookie', visitor, events).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).details).toEqual([{ field: 'events.1.step_number', message: 'must be between 1 and 3' }]);
    expect(intake.pending).toBe(0);
  });

  it('refuses a batch without a viewer session, naming the gate', async () => {
    const intake = await ingestion();
    const error = await intake.record('token', undefined, visitor, [{ id: 'a', type: 'view_started' as const }]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('unauthorized');
    expect((error as AppError).details).toEqual([{ field: 'gate', message: 'session' }]);
  });
});
