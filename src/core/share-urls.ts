/** The addresses of a share link's viewer pages, on the web app's origin. */
export interface ShareUrls {
  page(token: string): string;
  embed(token: string): string;
}

/**
 * Shared by the links API (url, embed_url) and the demos API (share_url): one shape of address for both.
 *
 * @example
 * ```ts
 * import { shareUrls } from './share-urls';
 *
 * const urls = shareUrls('https://demos.example.com/');
 * urls.page('tok_abc'); // 'https://demos.example.com/s/tok_abc'
 * urls.embed('tok_abc'); // 'https://demos.example.com/embed/tok_abc'
 * ```
 */
export function shareUrls(appUrl: string): ShareUrls {
  const base = appUrl.replace(/\/+$/, '');
  return { page: (token) => `${base}/s/${token}`, embed: (token) => `${base}/embed/${token}` };
}
