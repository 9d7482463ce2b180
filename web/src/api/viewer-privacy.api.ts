import type { z } from 'zod';
import type { erasureSchema } from '../../../src/viewer-privacy/viewer-privacy.schemas';
import { api } from './client';

export type ViewerErasure = z.output<typeof erasureSchema>;

/** Erasing a viewer's data by e-mail, in the session's workspace (admins). */
export const viewerPrivacyApi = {
  erase: (email: string) => api<ViewerErasure>('POST', '/viewer-erasures', { body: { email } }),
};
