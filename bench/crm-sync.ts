/**
 * `npm run bench:crm [-- --events 2000 --people 500]`
 *
 * What the HubSpot sync (src/crm) costs on the embedded database, against the local HubSpot of the tests
 * (test/helpers/hubspot-server.ts): `events` demo.viewed events of `people` viewers fanned out by the outbox
 * dispatcher (the CRM consumer writing sync items in its transaction), then synced one round of the worker
 * loop at a time (`runOnce`) until nothing is due. Prints the requests HubSpot received and each phase's time.
 */
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { systemClock } from '../src/core/clock';
import { deriveKey, seal } from '../src/core/crypto';
import { crmOutboxConsumer } from '../src/crm/crm.notes';
import { notifySync, saveConnection } from '../src/crm/crm.repo';
import { crmSyncWorker } from '../src/crm/crm.worker';
import { openDatabase } from '../src/db/client';
import { emitEvents, OutboxConsumers } from '../src/events/outbox';
import { dispatchBatch } from '../src/webhooks/webhooks.dispatcher';
import { workspaces } from '../src/workspaces/workspaces.tables';
import { HubSpotServer } from '../test/helpers/hubspot-server';
import { startInProcessApp } from './in-process';
import { seedDemo } from './seed-demo';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '2000' }, people: { type: 'string', default: '500' } } });
const EVENTS = Number(args.events);
const PEOPLE = Number(args.people);

const database = await openDatabase({});
const { app, close } = await startInProcessApp(database);
const hubspot = await new HubSpotServer().start();
try {
  const { demo } = await seedDemo(app, ['demos:read', 'demos:write'], 1);
  // The one workspace of this fresh database: the bench's account.
  const [{ id: ws }] = (await database.db.select({ id: workspaces.id }).from(workspaces).limit(1)) as [{ id: string }];
  const key = deriveKey('bench-secret', 'sealing');
  const now = new Date();
  await saveConnection(database.db, {
    workspaceId: ws,
    tokenSealed: seal(key, 'pat-na1-good-token-1234'),
    tokenLast4: '1234',
    connectedAt: new Date(now.getTime() - 60_000),
    createdAt: now,
    updatedAt: now,
  });
  await database.db.transaction((tx) =>
    emitEvents(
      tx,
      systemClock,
      Array.from({ length: EVENTS }, (_, i) => ({
        workspaceId: ws,
        kind: 'demo.viewed' as const,
        data: { demo_id: demo.id, view_id: `view_${i}`, share_id: 'shr_x', viewer_email: `viewer${i % PEOPLE}@example.com`, viewer_name: 'Bench Viewer' },
      })),
    ),
  );

  const consumers = new OutboxConsumers();
  consumers.add('crm', crmOutboxConsumer('http://localhost:3000', notifySync));
  let t0 = performance.now();
  while ((await dispatchBatch(database.db, new Date(), 6, consumers)) > 0) {}
  const dispatchMs = performance.now() - t0;

  const worker = crmSyncWorker({
    database,
    clock: systemClock,
    sealingKey: key,
    log: { error: console.error, warn: console.warn },
    settings: { apiUrl: hubspot.url, retryDelays: [1000], timeoutMs: 10_000, pollIntervalMs: 1000 },
  });
  t0 = performance.now();
  let batches = 0;
  while ((await worker.runOnce()) > 0) batches++;
  const syncMs = performance.now() - t0;

  const count = (path: string) => hubspot.requests.filter((r) => r.path === path).length;
  console.log(`\n| figure | value |\n|---|--:|`);
  console.log(`| events / distinct contacts | ${EVENTS} / ${PEOPLE} |`);
  console.log(`| contacts / notes in HubSpot | ${hubspot.contacts.size} / ${hubspot.notes.length} |`);
  console.log(`| batches / upsert requests / note requests | ${batches} / ${count('/crm/v3/objects/contacts/batch/upsert')} / ${count('/crm/v3/objects/notes/batch/create')} |`);
  console.log(`| fan-out into sync items (dispatcher + consumer), ms | ${Math.round(dispatchMs)} |`);
  console.log(`| sync to HubSpot, ms | ${Math.round(syncMs)} (${Math.round((EVENTS / syncMs) * 1000)} events/s) |`);
} finally {
  await hubspot.close();
  await close();
  await database.close();
}
