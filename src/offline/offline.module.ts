// The offline domain as the app sees it: one module object, one line in app.ts.
import { defineModule } from '../module';
import type { AuthContext } from '../auth/permissions';
import { AppError, invalid } from '../core/errors';
import { offlineRoutes } from './offline.routes';
import { createOfflineService, type OfflineService } from './offline.service';
import { createPlayerFiles } from './player-files';

declare module '../module' {
  interface Services {
    offline: {
      offline: OfflineService;
      /** The token of the link an offline file's beacon posts through (409 when the demo has none it can use). */
      beaconLinks(auth: AuthContext, demoId: string, shareId: string | undefined): Promise<string>;
      /** The viewer's gates and event intake, for the beacon's route. */
      viewing: Pick<Services['viewing'], 'viewer' | 'ingestion'>;
    };
  }
}

/**
 * Offline bundles: one self-contained HTML file that plays a demo's published version with no server (the
 * player's static source, pictures and snapshots inline), and the route its optional beacon posts viewing
 * events to. docs/offline.md.
 *
 * @example
 * // app.ts: after demos, workspaces, shares and viewing, whose services it uses.
 * const MODULES = [..., viewingModule, leadsModule, offlineModule, ...];
 */
export const offlineModule = defineModule({
  name: 'offline',
  needs: ['demos', 'workspaces', 'shares', 'viewing'],
  create(kernel, deps) {
    const apiOrigin = new URL(kernel.config.API_URL ?? kernel.config.APP_URL).origin;
    const shares = deps.shares.shares;
    return {
      offline: createOfflineService({
        demos: deps.demos.reader,
        workspaces: deps.workspaces.reader,
        logos: deps.workspaces.workspaces,
        documents: kernel.documents,
        net: kernel.net,
        player: createPlayerFiles(),
        clock: kernel.clock,
        apiOrigin,
      }),
      async beaconLinks(auth, demoId, shareId) {
        const now = kernel.clock.now();
        const open = (s: Awaited<ReturnType<typeof shares.get>>) =>
          s.demoId === demoId && !s.revokedAt && (!s.expiresAt || s.expiresAt > now) && !s.passwordHash && !s.requireIdentification;
        if (shareId) {
          const share = await shares.get(auth, shareId).catch(() => undefined);
          if (!share || share.demoId !== demoId) throw invalid('share_id is not a link of this demo', [{ field: 'share_id', message: 'not a link of this demo' }]);
          if (!open(share)) {
            throw new AppError('conflict', 'This link cannot carry an offline file’s beacon: it is revoked, expired, or asks for a password or identification', {
              details: [{ field: 'share_id', message: 'must be an active link without a password or identification' }],
            });
          }
          return share.token;
        }
        const found = (await shares.list(auth, demoId)).find(open);
        if (!found) {
          throw new AppError('conflict', 'The beacon needs a share link of this demo without a password or identification: create one, or export without beacon', {
            details: [{ field: 'share_id', message: 'no active link without a password or identification' }],
          });
        }
        return found.token;
      },
      viewing: { viewer: deps.viewing.viewer, ingestion: deps.viewing.ingestion },
    };
  },
  routes: offlineRoutes,
});
