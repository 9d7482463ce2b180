import { defineModule } from '../module';
import { createDomainDns } from './domain-dns';
import { createDomainHosts, type DomainHosts } from './domain-hosts';
import { hostKey, instanceHostsOf } from './domain-name';
import { registerDomainsJobs } from './domains.jobs';
import { domainsRoutes, tlsAskPage } from './domains.routes';
import { createDomainsService, type DomainsService } from './domains.service';

declare module '../module' {
  interface Services {
    domains: {
      domains: DomainsService;
      /** The Host routing's cached look-ups (public-hosts.hook.ts, /tls/ask, kernel.origins). */
      hosts: DomainHosts;
      /** APP_URL's and API_URL's host names. */
      instanceHosts: readonly string[];
      cnameTarget: string;
      scheme: 'http' | 'https';
    };
  }
}

/**
 * Custom domains: a workspace's own host names, verified by DNS and re-checked on a schedule, on which its
 * share links, hubs and embeds are served (the Host routing in public-hosts.hook.ts) and which its links
 * use (`kernel.origins`); the reverse proxy's certificate question (/tls/ask).
 *
 * @example
 * // app.ts registers the Host routing with the module's look-ups, after the cookie plugin:
 * registerPublicHosts(app, services.domains.hosts, services.domains.instanceHosts);
 * // Any module asks for a workspace's addresses through the kernel:
 * const urls = await kernel.origins.shareUrls(workspaceId);
 */
export const domainsModule = defineModule({
  name: 'domains',
  owns: { tables: 'domains.tables.ts', ids: ['domain'], permissions: ['domains.manage'] },
  create: (kernel) => {
    const { config } = kernel;
    const instanceHosts = instanceHostsOf(config);
    const cnameTarget = config.CUSTOM_DOMAIN_CNAME_TARGET ? hostKey(config.CUSTOM_DOMAIN_CNAME_TARGET) : (instanceHosts[0] as string);
    // Custom domains are served over HTTPS by the proxy; an http: APP_URL is a development instance.
    const scheme = config.APP_URL.startsWith('http:') ? 'http' : 'https';
    const hosts = createDomainHosts({ ...kernel, scheme });
    kernel.origins.use(hosts.originOf);
    return {
      domains: createDomainsService({
        ...kernel,
        dns: createDomainDns(config.DNS_SERVERS),
        instanceHosts,
        cnameTarget,
        recheckGraceMs: config.DOMAIN_RECHECK_GRACE,
        scheme,
      }),
      hosts,
      instanceHosts,
      cnameTarget,
      scheme,
    };
  },
  routes: domainsRoutes,
  pages: tlsAskPage,
  jobs: registerDomainsJobs,
  async close(services) {
    services.hosts.close();
  },
});
