import { describe, expect, it } from 'vitest';
import { createLocalBus } from '../core/bus';
import { Changes } from '../core/changes';
import { AppError } from '../core/errors';
import type { IngestItem } from './ingestion';
import { ViewerCache } from './viewer-cache';
import { createViewerContent } from './viewer-content.service';
import type { RequireReady } from './viewer-gates.resolve';

// The service names what it needs: the gates' one method, two demo readers and a recorder. A test passes
// exactly those, and nothing of the database.
const session = { id: 'sess', shareId: 'shr_1', demoId: 'demo_1', workspaceId: 'ws_1' };
const requireReady: RequireReady = async () =>
    ({
      link: { share: { id: 'shr_1', demoId: 'demo_1', workspaceId: 'ws_1' }, demoStatus: 'published', version: 1, stepCount: 3 },
      session,
      gate: 'ready',
    }) as unknown as Awaited<ReturnType<RequireReady>>;
const visitor = { ip: '203.0.113.1', userAgent: null, referrer: null };

function content(record: (item: IngestItem) => Promise<{ accepted: number; duplicates: number }>) {
  return createViewerContent({
    requireReady,
    cache: new ViewerCache(new Changes(createLocalBus())),
    demos: { published: async () => undefined, asset: async () => undefined },
    record,
    assetOrigin: '',
  });
}

describe('recording a batch of viewer events', () => {
  it('refuses a batch naming a step the demo does not have, naming the event, and stores none of it', async () => {
    const recorded: IngestItem[] = [];
    const service = content(async (item) => {
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
    const service = content(async (item) => {
      recorded.push(item);
      return { accepted: item.events.length, duplicates: 0 };
    });
    const events = [{ id: 'a', type: 'view_started' as const }, { id: 'b', type: 'step_reached' as const, stepNumber: 2 }];
    expect(await service.recordEvents('token', 'cookie', visitor, events)).toEqual({ accepted: 2, duplicates: 0 });
    expect(recorded).toEqual([{ session, shareId: 'shr_1', stepCount: 3, version: 1, events }]);
  });
});
