// The share-links port demos reads share_url through (DemoLinks): shares owns the links' table, and demos never queries it.
import type { Database } from '../db/client';
import type { DemoLinks } from '../demos/demo-reads.service';
import * as repo from './shares.repo';

/** The demos' share_url, answered from the links' table for the demos domain (which never reads it). */
export function createShareLinks(database: Pick<Database, 'db'>): DemoLinks {
  return {
    async firstActive(demoIds) {
      const rows = await repo.firstActiveLinks(database.db, demoIds);
      return new Map(rows.map((r) => [r.demoId, { token: r.token, expiresAt: r.expiresAt }]));
    },
  };
}
