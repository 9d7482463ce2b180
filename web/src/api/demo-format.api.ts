import type { z } from 'zod';
import type { demoKeySchema } from '../../../src/demo-format/demo-format.schemas';
import { api } from './client';

export type DemoKey = z.output<typeof demoKeySchema>;

/** Demo files (docs/demo-format.md): the download is a plain link, the key a small resource of its own. */
export const demoFormatApi = {
  /** A plain link: the browser downloads the zip with the session cookie (a GET needs no CSRF header). */
  exportUrl: (demoId: string, version: 'draft' | 'published') => `/v1/demos/${encodeURIComponent(demoId)}/export?version=${version}`,
  key: (demoId: string) => api<DemoKey>('GET', `/demos/${encodeURIComponent(demoId)}/key`),
  setKey: (demoId: string, key: string | null) => api<DemoKey>('PUT', `/demos/${encodeURIComponent(demoId)}/key`, { body: { key } }),
  schemaUrl: '/schemas/demo/v1.json',
};
