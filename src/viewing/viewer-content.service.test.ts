import { describe, expect, it } from 'vitest';
import { createLocalBus } from '../core/bus';
import { sha256Hex } from '../core/crypto';
import { Changes } from '../core/changes';
import { AppError } from '../core/errors';
import type { IngestItem } from './ingestion';
import { type LinkState, ViewerCache } from './viewer-cache';
import { createViewerContent } from './viewer-content.service';
import type { ViewerSessionRow } from './viewer.repo';

// The service names what it needs: what the gates read (here a cache holding the link and the session, so
// nothing of the database is reached), two demo readers and the ingestion. A test passes exactly those.
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

async function content(ingest: (item: IngestItem) => Promise<{ accepted: number; duplicates: number }>) {
  const cache = new ViewerCache(new Changes(createLocalBus()));
  const link = { share, workspace: { id: 'ws_1' }, demoStatus: 'published', version: 1, stepCount: 3 } as unknown as LinkState;
  await cache.links.load('token', () => [], async () => link);
  await cache.sessions.load(session.id, () => [], async () => session as unknown as ViewerSessionRow);
  const unused = () => {
    throw new Error('not reached on a cached link and session');
  };
  return createViewerContent({
    gates: {
      database: { get db(): never { return unused(); } },
      clock: { now: () => new Date() },
      cache,
      log: { warn: unused },
    },
    cache,
    demos: { published: async () => undefined, asset: async () => undefined },
    ingestion: { ingest },
    assetOrigin: '',
  });
}

describe('recording a batch of viewer events', () => {
  it('refuses a batch naming a step the demo does not have, naming the event, and stores none of it', async () => {
    const recorded: IngestItem[] = [];
    const service = await content(async (item) => {
      recorded.push(item);
      return { accepted: item.events.length, duplicates: 0 };
    });
    const events = [
      { id: 'a', type: 'step_reached' as const, stepNumber: 3 },
      { id: 'b', type: 'step_reached' as const, stepNumber: 4 },
    ];
    const error = await service.recordEvents('token', 'cookie', visitor, events).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).details).toEqual([{ field: 'events.1.step_number', message: 'must be between 1 and 3' }]);
    expect(recorded).toEqual([]);
  });

  it('hands a valid batch to the recorder with its session, link and step count', async () => {
    const recorded: IngestItem[] = [];
    const service = await content(async (item) => {
      recorded.push(item);
      return { accepted: item.events.length, duplicates: 0 };
    });
    const events = [{ id: 'a', type: 'view_started' as const }, { id: 'b', type: 'step_reached' as const, stepNumber: 2 }];
    expect(await service.recordEvents('token', 'cookie', visitor, events)).toEqual({ accepted: 2, duplicates: 0 });
    expect(recorded).toEqual([{ session, shareId: 'shr_1', stepCount: 3, version: 1, events }]);
  });
});
