import type { AuthContext } from '../auth/permissions';
import { notFound } from '../core/errors';
import * as versions from './demo-versions.repo';
import type { DemoWriteDeps } from './demo-writes';
import * as repo from './demos.repo';
import { publishDemo } from './publish-demo';
import { restoreVersion } from './restore-version';

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

  return { publish: publishDemo.bind(null, deps), list, restore: restoreVersion.bind(null, deps) };
}

export type DemoVersionsService = ReturnType<typeof createDemoVersions>;
