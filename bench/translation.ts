/**
 * Translation of a 20-step recorded demo (bench/recording-upload.ts: each step a ≈200 KB captured page, so
 * 2,000 page texts per step, the cap): export as XLIFF and as PO, import the XLIFF translated, approve,
 * then the viewer payload in French and a translated page, first (parsed in a document worker) and again
 * (cached). Called by bench/run.ts after the recording upload, on the demo it made; alone:
 *
 *   node bin/run-ts.js bench/translation.ts <base-url> <api-key> <demo-id>
 *
 * Bounded: one language on one demo; it stays in the server's database.
 */
import { performance } from 'node:perf_hooks';

export interface TranslationTimings {
  units: number;
  xliffBytes: number;
  exportXliffMs: number;
  exportPoMs: number;
  importMs: number;
  payloadFirstMs: number;
  payloadCachedMs: number;
  pageFirstMs: number;
  pageCachedMs: number;
}

export async function benchTranslation(baseUrl: string, apiKey: string, demoId: string): Promise<TranslationTimings> {
  const base = baseUrl.replace(/\/+$/, '');
  const timed = async (path: string, init: RequestInit = {}, auth = true) => {
    const started = performance.now();
    const res = await fetch(`${base}${path}`, { ...init, headers: { ...(auth ? { authorization: `Bearer ${apiKey}` } : {}), ...(init.headers as object) } });
    const text = await res.text();
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return { ms: performance.now() - started, text };
  };
  const json = { 'content-type': 'application/json' };
  await timed(`/v1/demos/${demoId}`, { method: 'PATCH', body: JSON.stringify({ status: 'published' }), headers: json });
  const share = JSON.parse((await timed(`/v1/demos/${demoId}/shares`, { method: 'POST', body: JSON.stringify({ name: 'Bench translation' }), headers: json })).text).data;
  const token = new URL(share.url).pathname.split('/').pop()!;

  const xliff = await timed(`/v1/demos/${demoId}/translations/export?lang=fr`);
  const po = await timed(`/v1/demos/${demoId}/translations/export?lang=fr&format=po`);
  const units = (xliff.text.match(/<unit /g) ?? []).length;
  // Every unit "translated": its source, prefixed (codes kept).
  const translated = xliff.text.replace(/<source>(.*?)<\/source>/g, (whole, inner: string) => `${whole}<target>FR ${inner}</target>`);
  const imported = await timed(`/v1/demos/${demoId}/translations/import`, { method: 'POST', body: translated, headers: { 'content-type': 'application/xliff+xml' } });
  await timed(`/v1/demos/${demoId}/translations/fr`, { method: 'PATCH', body: JSON.stringify({ status: 'reviewed' }), headers: json });

  const payloadFirst = await timed(`/v1/viewer/${token}/demo?lang=fr`, {}, false);
  const payloadCached = await timed(`/v1/viewer/${token}/demo?lang=fr`, {}, false);
  const pageUrl = (JSON.parse(payloadFirst.text).data.steps as Array<{ html_url: string | null }>).find((s) => s.html_url?.includes('lang=fr'))?.html_url;
  if (!pageUrl) throw new Error('no translated page in the payload');
  const path = pageUrl.startsWith('http') ? new URL(pageUrl).pathname + new URL(pageUrl).search : pageUrl;
  const pageFirst = await timed(path, {}, false);
  const pageCached = await timed(path, {}, false);
  return {
    units,
    xliffBytes: Buffer.byteLength(xliff.text),
    exportXliffMs: xliff.ms,
    exportPoMs: po.ms,
    importMs: imported.ms,
    payloadFirstMs: payloadFirst.ms,
    payloadCachedMs: payloadCached.ms,
    pageFirstMs: pageFirst.ms,
    pageCachedMs: pageCached.ms,
  };
}

/** One line for the bench's output. */
export const translationLine = (engine: string, t: TranslationTimings) =>
  `${engine} translation of a 20-step recorded demo, ${t.units} units (${(t.xliffBytes / 1024 / 1024).toFixed(1)} MB of XLIFF): ` +
  `export XLIFF ${t.exportXliffMs.toFixed(0)} ms, PO ${t.exportPoMs.toFixed(0)} ms, import ${t.importMs.toFixed(0)} ms; ` +
  `French payload ${t.payloadFirstMs.toFixed(0)} ms first, ${t.payloadCachedMs.toFixed(1)} ms cached; ` +
  `translated page ${t.pageFirstMs.toFixed(0)} ms first, ${t.pageCachedMs.toFixed(1)} ms cached`;

// Run directly (bin/run-ts.js makes this file argv[1]), not when bench/run.ts imports it.
if (process.argv[1]?.endsWith('translation.ts')) {
  const [baseUrl, apiKey, demoId] = process.argv.slice(2);
  if (!baseUrl || !apiKey || !demoId) {
    console.error('usage: node bin/run-ts.js bench/translation.ts <base-url> <api-key> <demo-id>');
    process.exit(2);
  }
  console.log(translationLine('server', await benchTranslation(baseUrl, apiKey, demoId)));
}
