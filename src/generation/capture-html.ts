import type { SafeFetch } from '../core/net/safe-fetch';
import { CaptureError } from './capture-error';
import type { CapturedPage } from './generation.types';
import { buildSnapshot, type SnapshotWorkers } from './snapshot';

export const HTML_VIEWPORT = { width: 1280, height: 800 };
export const USER_AGENT = 'Mozilla/5.0 (compatible; DemoshareBot/1.0; +https://github.com/demoshare/demoshare)';
const MAX_HTML_BYTES = 3 * 1024 * 1024;

/**
 * The capture mode without a browser: fetch the page through the SSRF guard (redirects re-checked), keep
 * a sanitised snapshot and the facts read from its markup. Elements have no boxes here.
 */
export async function captureHtml({ net, documents }: { net: SafeFetch; documents: SnapshotWorkers }, url: string, deadline: number): Promise<CapturedPage> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new CaptureError(`no time left to fetch ${url}`);
  const res = await net.fetch(url, {
    maxRedirects: 5,
    maxBytes: MAX_HTML_BYTES,
    timeoutMs: Math.min(remaining, 20_000),
    headers: { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.1', 'user-agent': USER_AGENT },
  });
  if (res.status >= 400) throw new CaptureError(`${url} answered HTTP ${res.status}`);
  if (res.status >= 300) throw new CaptureError(`${url} redirects too many times`);
  const type = res.headers['content-type'] ?? '';
  if (type && !/html/i.test(type)) throw new CaptureError(`${url} is not a web page (${type.split(';')[0]})`);
  const snapshot = await buildSnapshot(decode(res.body, type), res.url, { net, documents, deadline });
  return {
    url: res.url,
    title: snapshot.title,
    description: snapshot.description,
    width: HTML_VIEWPORT.width,
    height: HTML_VIEWPORT.height,
    html: snapshot.html,
    elements: snapshot.elements,
    links: snapshot.links,
  };
}

function decode(body: Buffer, contentType: string): string {
  const declared = /charset=([\w-]+)/i.exec(contentType)?.[1] ?? /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}
