import { defineModule } from '../module';
import { apiKeysRoutes } from './api-keys.routes';
import { type ApiKeysService, createApiKeysService } from './api-keys.service';
import { members } from '../accounts/accounts.tables';

declare module '../module' {
  interface Services {
    apiKeys: { apiKeys: ApiKeysService };
  }
}

/**
 * API keys: issued, rotated and revoked by members; resolved on every bearer request.
 *
 * @example
 * ```ts
 * // another module: needs: ['apiKeys'], then
 * const auth = await deps.apiKeys.apiKeys.resolve('dsk_…'); // AuthContext | null
 * ```
 */
export const apiKeysModule = defineModule({
  name: 'apiKeys',
  owns: { tables: 'api-keys.tables.ts', ids: ['apiKey'], permissions: ['keys.manage', 'keys.manage_all'] },
  reads: { tables: [members] },
  create: (kernel) => ({
    apiKeys: createApiKeysService({
      ...kernel,
      digestKey: kernel.secrets.keyDigest,
      rotationGraceMs: kernel.config.KEY_ROTATION_GRACE,
    }),
  }),
  routes: apiKeysRoutes,
});
