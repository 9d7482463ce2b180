// The viewing side of shares' LinkViewers port: a link's viewer sessions and access log.
import type { Database } from '../db/client';
import type { LinkViewers } from '../shares/link-viewers';
import * as repo from './viewer.repo';

/**
 * What a link's management may do with its viewers' records (shares/link-viewers.ts declares the port).
 *
 * @example
 * const linkViewers = createLinkViewers(kernel.database);
 * await linkViewers.dropSessions(tx, shareId); // in the revoke's transaction
 */
export function createLinkViewers(database: Pick<Database, 'db'>): LinkViewers {
  return {
    dropSessions: (tx, shareId) => repo.deleteLinkSessions(tx, shareId),
    accessLog: (shareId, page) => repo.listAccessLog(database.db, shareId, page),
  };
}
