import type { AuthContext } from '../auth/permissions';
import { conflict, notFound } from '../core/errors';
import { snapshotOf } from './demo-snapshot';
import * as versions from './demo-versions.repo';
import type { DemoWriteDeps } from './demo-writes';
import * as repo from './demos.repo';
import { publishDemo } from './publish-demo';
import { restoreVersion } from './restore-version';
import { diffSnapshots } from './version-diff';

/** What the versions service is built from. */
export type DemoVersionsDeps = DemoWriteDeps;

/**
 * Publishing changes (publish-demo.ts), the version history, and restoring a version into the draft
 * (restore-version.ts).
 *
 * @example
 * ```ts
 * const versions = createDemoVersions(kernel);
 * await versions.publish(auth, demoId, actor);
 * const { rows } = await versions.list(auth, demoId, { limit: 20, offset: 0 });
 * const diff = await versions.changes(auth, demoId, rows[0]!.number, 'draft');
 * await versions.restore(auth, demoId, rows[0]!.number);
 * ```
 */
export function createDemoVersions(deps: DemoVersionsDeps) {
  /** GET /v1/demos/:id/versions */
  async function list(auth: AuthContext, id: string, page: { limit: number; offset: number }) {
    const { db } = deps.database;
    const found = await repo.findDemo(db, auth.workspaceId, id);
    if (!found) throw notFound('Demo');
    return versions.listVersions(db, id, page);
  }

  /** GET /v1/demos/:id/versions/:version/changes: what the draft (or the live version) changed from a version. */
  async function changes(auth: AuthContext, id: string, number: number, against: 'draft' | 'live') {
    const { db } = deps.database;
    const found = await repo.loadDemo(db, auth.workspaceId, id);
    if (!found) throw notFound('Demo');
    const version = await versions.findVersion(db, id, number);
    if (!version) throw notFound('Version');
    if (against === 'draft') {
      return { against: 'draft' as const, ...diffSnapshots(version.snapshot, snapshotOf(found)) };
    }
    const live = found.demo.status === 'published' ? await repo.latestVersion(db, id) : undefined;
    if (!live) throw conflict('This demo is not published: there is no live version to compare with');
    return { against: live.number, ...diffSnapshots(version.snapshot, live.snapshot) };
  }

  return { publish: publishDemo.bind(null, deps), list, changes, restore: restoreVersion.bind(null, deps) };
}

export type DemoVersionsService = ReturnType<typeof createDemoVersions>;
