import type { Role } from '../api/types';

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', editor: 'Editor', viewer: 'Viewer' };

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Everything, including team, API keys and webhooks',
  editor: 'Create, edit and publish demos; manage share links',
  viewer: 'View demos and analytics',
};

export const ROLE_WITH_ARTICLE: Record<Role, string> = { admin: 'an admin', editor: 'an editor', viewer: 'a viewer' };
