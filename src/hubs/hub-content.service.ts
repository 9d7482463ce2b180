// A hub's collections, entries (each with the link the hub makes for it) and entry covers.
import type { AuthContext } from '../auth/permissions';
import { tags } from '../core/changes';
import { sha256Hex } from '../core/crypto';
import { AppError, invalid, notFound } from '../core/errors';
import { newId } from '../core/ids';
import { sniffImage } from '../core/image-sniff';
import type { Executor } from '../db/client';
import * as repo from './hubs.repo';
import { COVER_MAX_BYTES } from './hubs.schemas';
import { gatesOf, type HubsDeps } from './hubs.service';

/** Moves `id` to `position` among `ids` (in order) and answers the new order. */
function reorder(ids: string[], id: string, position: number) {
  const rest = ids.filter((x) => x !== id);
  rest.splice(Math.min(position, rest.length), 0, id);
  return rest;
}

/**
 * Collections and entries of a hub. Every change locks the hub first, so positions and the hub's gates
 * never cross a concurrent change.
 *
 * @example
 * const content = createHubContent({ ...kernel, demos: deps.demos.reader, hubLinks: deps.shares.hubLinks });
 * const col = await content.addCollection(auth, hubId, { name: 'Getting started' });
 * await content.addEntry(auth, hubId, { demoId, collectionId: col.id, description: 'Two minutes' });
 */
export function createHubContent(deps: HubsDeps) {
  const { db } = deps.database;

  async function locked<T>(auth: AuthContext, hubId: string, work: (tx: Executor, hub: repo.HubRow) => Promise<T>) {
    return db.transaction(async (tx) => {
      const hub = await repo.lockHub(tx, auth.workspaceId, hubId);
      if (!hub) throw notFound('Hub');
      return work(tx, hub);
    });
  }

  async function collectionOf(tx: Executor, hubId: string, id: string) {
    const all = await repo.listCollections(tx, hubId);
    const found = all.find((c) => c.id === id);
    return { all, found };
  }

  async function renumberCollections(tx: Executor, ordered: string[]) {
    for (const [i, id] of ordered.entries()) await repo.updateCollection(tx, id, { position: i });
  }

  async function renumberEntries(tx: Executor, ordered: string[]) {
    for (const [i, id] of ordered.entries()) await repo.updateEntry(tx, id, { position: i });
  }

  const entryIdsOf = async (tx: Executor, hubId: string, collectionId: string) =>
    (await repo.listEntries(tx, hubId)).filter((e) => e.entry.collectionId === collectionId).map((e) => e.entry.id);

  async function addCollection(auth: AuthContext, hubId: string, input: { name: string; position?: number }) {
    return locked(auth, hubId, async (tx, hub) => {
      const created = await repo.insertCollection(tx, {
        id: newId('hubCollection'),
        hubId: hub.id,
        name: input.name,
        position: await repo.nextCollectionPosition(tx, hub.id),
        createdAt: deps.clock.now(),
      });
      if (input.position === undefined) return created;
      const all = await repo.listCollections(tx, hub.id);
      await renumberCollections(tx, reorder(all.map((c) => c.id), created.id, input.position));
      return (await repo.listCollections(tx, hub.id)).find((c) => c.id === created.id)!;
    });
  }

  async function updateCollection(auth: AuthContext, hubId: string, id: string, input: { name?: string; position?: number }) {
    return locked(auth, hubId, async (tx, hub) => {
      const { all, found } = await collectionOf(tx, hub.id, id);
      if (!found) throw notFound('Collection');
      if (input.name !== undefined) await repo.updateCollection(tx, id, { name: input.name });
      if (input.position !== undefined) await renumberCollections(tx, reorder(all.map((c) => c.id), id, input.position));
      return (await repo.listCollections(tx, hub.id)).find((c) => c.id === id)!;
    });
  }

  async function removeCollection(auth: AuthContext, hubId: string, id: string) {
    const revoked = await locked(auth, hubId, async (tx, hub) => {
      const { found } = await collectionOf(tx, hub.id, id);
      if (!found) throw notFound('Collection');
      const links = await repo.entryShareIds(tx, hub.id, id);
      const gone = await deps.hubLinks.revoke(tx, hub.id, deps.clock.now(), links);
      await repo.deleteCollection(tx, id);
      return gone;
    });
    if (revoked.length > 0) await deps.changes.announce(...revoked.map((s) => tags.share(s)));
  }

  async function addEntry(
    auth: AuthContext,
    hubId: string,
    input: { demoId: string; collectionId: string; title?: string | null; description?: string; position?: number },
  ) {
    const demo = await deps.demos.find(auth.workspaceId, input.demoId);
    if (!demo) throw invalid('demo_id is not a demo of this workspace', [{ field: 'demo_id', message: 'no such demo' }]);
    return locked(auth, hubId, async (tx, hub) => {
      const { found } = await collectionOf(tx, hub.id, input.collectionId);
      if (!found) throw invalid('collection_id is not a collection of this hub', [{ field: 'collection_id', message: 'no such collection' }]);
      const now = deps.clock.now();
      const link = await deps.hubLinks.create(tx, {
        workspaceId: hub.workspaceId,
        demoId: input.demoId,
        hubId: hub.id,
        name: `Hub: ${hub.name}`,
        gates: gatesOf(hub),
        createdById: auth.memberId,
        now,
      });
      const entry = await repo.insertEntry(tx, {
        id: newId('hubEntry'),
        hubId: hub.id,
        collectionId: found.id,
        demoId: input.demoId,
        shareId: link.id,
        title: input.title ?? null,
        description: input.description ?? '',
        position: await repo.nextEntryPosition(tx, found.id),
        createdAt: now,
        updatedAt: now,
      });
      if (input.position !== undefined) await renumberEntries(tx, reorder(await entryIdsOf(tx, hub.id, found.id), entry.id, input.position));
      return (await repo.listEntries(tx, hub.id)).find((e) => e.entry.id === entry.id)!;
    });
  }

  async function updateEntry(
    auth: AuthContext,
    hubId: string,
    id: string,
    input: { collectionId?: string; title?: string | null; description?: string; position?: number },
  ) {
    return locked(auth, hubId, async (tx, hub) => {
      const entries = await repo.listEntries(tx, hub.id);
      const current = entries.find((e) => e.entry.id === id)?.entry;
      if (!current) throw notFound('Entry');
      let collectionId = current.collectionId;
      if (input.collectionId !== undefined && input.collectionId !== current.collectionId) {
        const { found } = await collectionOf(tx, hub.id, input.collectionId);
        if (!found) throw invalid('collection_id is not a collection of this hub', [{ field: 'collection_id', message: 'no such collection' }]);
        collectionId = found.id;
      }
      const moved = collectionId !== current.collectionId;
      await repo.updateEntry(tx, id, {
        collectionId,
        ...(input.title !== undefined ? { title: input.title } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(moved ? { position: await repo.nextEntryPosition(tx, collectionId) } : {}),
        updatedAt: deps.clock.now(),
      });
      if (input.position !== undefined) await renumberEntries(tx, reorder(await entryIdsOf(tx, hub.id, collectionId), id, input.position));
      return (await repo.listEntries(tx, hub.id)).find((e) => e.entry.id === id)!;
    });
  }

  async function removeEntry(auth: AuthContext, hubId: string, id: string) {
    const revoked = await locked(auth, hubId, async (tx, hub) => {
      const entry = (await repo.listEntries(tx, hub.id)).find((e) => e.entry.id === id)?.entry;
      if (!entry) throw notFound('Entry');
      const gone = await deps.hubLinks.revoke(tx, hub.id, deps.clock.now(), [entry.shareId]);
      await repo.deleteEntry(tx, id);
      return gone;
    });
    if (revoked.length > 0) await deps.changes.announce(...revoked.map((s) => tags.share(s)));
  }

  async function setCover(auth: AuthContext, hubId: string, id: string, bytes: Buffer) {
    if (bytes.length > COVER_MAX_BYTES) throw new AppError('payload_too_large', `A cover can be up to ${COVER_MAX_BYTES / 1024} KB`);
    const info = sniffImage(bytes);
    if (!info) throw new AppError('unsupported_media_type', 'The cover is not a PNG, JPEG or WebP image (checked from its bytes)');
    const sha256 = sha256Hex(bytes);
    return locked(auth, hubId, async (tx, hub) => {
      const entry = (await repo.listEntries(tx, hub.id)).find((e) => e.entry.id === id)?.entry;
      if (!entry) throw notFound('Entry');
      await repo.setCover(tx, { entryId: id, contentType: info.contentType, bytes, sha256 });
      await repo.updateEntry(tx, id, { coverSha256: sha256, updatedAt: deps.clock.now() });
      return (await repo.listEntries(tx, hub.id)).find((e) => e.entry.id === id)!;
    });
  }

  async function removeCover(auth: AuthContext, hubId: string, id: string) {
    await locked(auth, hubId, async (tx, hub) => {
      const entry = (await repo.listEntries(tx, hub.id)).find((e) => e.entry.id === id)?.entry;
      if (!entry) throw notFound('Entry');
      await repo.deleteCover(tx, id);
      await repo.updateEntry(tx, id, { coverSha256: null, updatedAt: deps.clock.now() });
    });
  }

  return { addCollection, updateCollection, removeCollection, addEntry, updateEntry, removeEntry, setCover, removeCover };
}

export type HubContent = ReturnType<typeof createHubContent>;
