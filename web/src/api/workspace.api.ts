import type { z } from 'zod';
import type { patchWorkspaceBody, workspaceSettingsSchema } from '../../../src/workspaces/workspaces.schemas';
import { api, apiUpload } from './client';

export type WorkspaceSettings = z.output<typeof workspaceSettingsSchema>;
export type WorkspaceChange = z.input<typeof patchWorkspaceBody>;
export {
  DEFAULT_BRAND_COLOR,
  FONT_KEYS,
  FONT_STACKS,
  type FontKey,
  LOGO_MAX_BYTES,
  LOGO_MAX_SIDE,
  textOn,
  WORKSPACE_NAME_MAX,
} from '../../../src/workspaces/branding';

/** The workspace the session acts in: name, branding and share-link defaults. */
export const workspaceApi = {
  get: () => api<WorkspaceSettings>('GET', '/workspace'),
  update: (body: WorkspaceChange) => api<WorkspaceSettings>('PATCH', '/workspace', { body }),
  uploadLogo: (file: Blob) => apiUpload<WorkspaceSettings>('/workspace/logo', file, 'PUT'),
  removeLogo: () => api<void>('DELETE', '/workspace/logo'),
};
