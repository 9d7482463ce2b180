/** The addresses of a share link's viewer pages, on the web app's origin. */
export interface ShareUrls {
  page(token: string): string;
  embed(token: string): string;
}

/** Shared by the links API (url, embed_url) and the demos API (share_url): one shape of address for both. */
export function shareUrls(appUrl: string): ShareUrls {
  const base = appUrl.replace(/\/+$/, '');
  return { page: (token) => `${base}/s/${token}`, embed: (token) => `${base}/embed/${token}` };
}
