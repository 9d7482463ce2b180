/** The addresses of a share link's viewer pages, on the web app's origin. */
export interface ShareUrls {
  page(token: string): string;
  embed(token: string): string;
  /** A demo hub's page (src/hubs). */
  hub(token: string): string;
  /** A demo hub for an iframe. */
  hubEmbed(token: string): string;
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
  return {
    page: (token) => `${base}/s/${token}`,
    embed: (token) => `${base}/embed/${token}`,
    hub: (token) => `${base}/h/${token}`,
    hubEmbed: (token) => `${base}/embed/h/${token}`,
  };
}
