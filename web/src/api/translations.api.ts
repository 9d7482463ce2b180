import type { z } from 'zod';
import type { importResultSchema, machineResultSchema, translationDetailSchema, translationSchema } from '../../../src/translations/translations.schemas';
import { api, apiUpload } from './client';

export type Translation = z.output<typeof translationSchema>;
export type TranslationDetail = z.output<typeof translationDetailSchema>;
export type TranslationUnit = TranslationDetail['units'][number];
export type TranslationImport = z.output<typeof importResultSchema>;
export type MachineTranslationResult = z.output<typeof machineResultSchema>;
export type TranslationFormat = 'xliff' | 'po';

const base = (demoId: string) => `/demos/${encodeURIComponent(demoId)}/translations`;

export const translationsApi = {
  list: (demoId: string) => api<Translation[]>('GET', base(demoId)),
  get: (demoId: string, lang: string) => api<TranslationDetail>('GET', `${base(demoId)}/${encodeURIComponent(lang)}`),
  /** A plain link: the browser downloads it with the session cookie (a GET needs no CSRF header). */
  exportUrl: (demoId: string, lang: string, format: TranslationFormat) =>
    `/v1${base(demoId)}/export?${new URLSearchParams({ lang, format })}`,
  /** The file as the raw body; its type is told from its name, the server reads the format from its content. */
  import: (demoId: string, file: File, lang?: string) => {
    const type = /\.po$/i.test(file.name) ? 'text/x-gettext-translation' : 'application/xliff+xml';
    const query = lang ? `?${new URLSearchParams({ lang })}` : '';
    return apiUpload<TranslationImport>(`${base(demoId)}/import${query}`, new Blob([file], { type }));
  },
  machine: (demoId: string, lang: string, overwrite = false) =>
    api<MachineTranslationResult>('POST', `${base(demoId)}/${encodeURIComponent(lang)}/machine`, { body: { overwrite } }),
  update: (demoId: string, lang: string, body: { status?: 'draft' | 'reviewed'; units?: Array<{ id: string; target: string | null }> }) =>
    api<Translation>('PATCH', `${base(demoId)}/${encodeURIComponent(lang)}`, { body }),
  remove: (demoId: string, lang: string) => api<void>('DELETE', `${base(demoId)}/${encodeURIComponent(lang)}`),
};
