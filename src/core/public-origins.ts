// Where a workspace's viewers are sent: its verified custom domain when it has one, else the instance's APP_URL.
import { type ShareUrls, shareUrls } from './share-urls';

/** Answers a workspace's custom origin (`https://demos.example.com`), or undefined to use APP_URL. */
export type OriginResolver = (workspaceId: string) => Promise<string | undefined>;

/**
 * The one per-workspace origin of share links, hubs and embeds, on the kernel so that shares, demos, MCP,
 * viewing and hubs ask it without depending on the domains module, which plugs its cached resolver in
 * when it is created (`use`). Without one every workspace gets APP_URL, as before custom domains.
 *
 * @example
 * ```ts
 * const urls = await kernel.origins.shareUrls(auth.workspaceId);
 * urls.page(share.token); // 'https://demos.example.com/s/…' once verified, else '{APP_URL}/s/…'
 * ```
 */
export class PublicOrigins {
  private resolver: OriginResolver | undefined;
  readonly appUrl: string;

  constructor(appUrl: string) {
    this.appUrl = appUrl.replace(/\/+$/, '');
  }

  use(resolver: OriginResolver): void {
    this.resolver = resolver;
  }

  /** The workspace's origin, without a trailing slash. */
  async of(workspaceId: string): Promise<string> {
    return (this.resolver ? await this.resolver(workspaceId) : undefined) ?? this.appUrl;
  }

  async shareUrls(workspaceId: string): Promise<ShareUrls> {
    return shareUrls(await this.of(workspaceId));
  }
}
