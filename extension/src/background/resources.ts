import type { FetchedResource, ResourceKind } from '../shared/messages';

/**
 * The page cannot read a cross-origin stylesheet's rules, nor fetch a cross-origin font or image; the
 * worker can, with the extension's host permissions (and the user's cookies, since the app is signed in).
 */
const MAX_BYTES = 2 * 1024 * 1024;
const cache = new Map<string, Promise<FetchedResource | null>>();
const CACHE_ENTRIES = 200;

export function fetchResource(url: string, kind: ResourceKind): Promise<FetchedResource | null> {
  if (!/^https?:/i.test(url)) return Promise.resolve(null);
  const key = `${kind} ${url}`;
  const known = cache.get(key);
  if (known) return known;
  const fetched = load(url, kind);
  cache.set(key, fetched);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value as string);
  return fetched;
}

async function load(url: string, kind: ResourceKind): Promise<FetchedResource | null> {
  try {
    const res = await fetch(url, { credentials: 'include', signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return null;
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > MAX_BYTES) return null;
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim() || guessType(url, kind);
    if (kind === 'css') {
      const text = await res.text();
      return text.length > MAX_BYTES ? null : { url: res.url, contentType, text };
    }
    const bytes = new Uint8Array(await res.arrayBuffer());
    if (bytes.length > MAX_BYTES) return null;
    return { url: res.url, contentType, dataUrl: `data:${contentType};base64,${base64(bytes)}` };
  } catch {
    return null;
  }
}

function guessType(url: string, kind: ResourceKind): string {
  if (kind === 'css') return 'text/css';
  const ext = new URL(url).pathname.split('.').pop()?.toLowerCase() ?? '';
  const types: Record<string, string> = {
    woff2: 'font/woff2', woff: 'font/woff', ttf: 'font/ttf', otf: 'font/otf',
    png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', avif: 'image/avif',
  };
  return types[ext] ?? 'application/octet-stream';
}

export function base64(bytes: Uint8Array): string {
  let out = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) out += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(out);
}
