// The DNS look-ups that verify a domain: the TXT record with the workspace's token, or a CNAME to the instance.
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { VerificationMethod } from './domains.tables';

/** The TXT record's name for a domain: under the domain, so creating it needs control of the zone. */
export const txtName = (hostname: string) => `_demoshare.${hostname}`;
/** The TXT record's value: the prefix says whose record it is among others on the same name. */
export const txtValue = (token: string) => `demoshare-verification=${token}`;

export interface DnsVerdict {
  /** How it verified; null when neither record is there. */
  method: VerificationMethod | null;
  /** What was found, in words for the admin, when it did not verify. */
  error: string | null;
}

export interface DomainDns {
  check(hostname: string, token: string, cnameTarget: string): Promise<DnsVerdict>;
}

const lower = (name: string) => name.toLowerCase().replace(/\.$/, '');

function explain(error: unknown, what: string): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOTFOUND' || code === 'ENODATA') return `no ${what} record found`;
  return `the ${what} look-up failed (${code ?? 'error'})`;
}

/**
 * Look-ups through `node:dns`'s Resolver: the system's servers, or DNS_SERVERS (`ip` or `ip:port`, so tests
 * ask a DNS server of their own). Answers what verifies, TXT first: it alone says which workspace owns a
 * name, where a CNAME only says the name leads here.
 *
 * @example
 * const dns = createDomainDns(['127.0.0.1:5353']);
 * await dns.check('demos.example.com', 'tok', 'app.demoshare.io'); // { method: 'txt', error: null }
 */
export function createDomainDns(servers: readonly string[], timeoutMs = 3000): DomainDns {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 2 });
  if (servers.length > 0) resolver.setServers([...servers]);
  return {
    async check(hostname, token, cnameTarget) {
      const problems: string[] = [];
      try {
        const records = await resolver.resolveTxt(txtName(hostname));
        if (records.some((chunks) => chunks.join('') === txtValue(token))) return { method: 'txt', error: null };
        problems.push(`TXT ${txtName(hostname)} does not hold this domain's token`);
      } catch (error) {
        problems.push(`TXT ${txtName(hostname)}: ${explain(error, 'TXT')}`);
      }
      if (isIP(cnameTarget)) return { method: null, error: problems.join('; ') };
      try {
        const targets = await resolver.resolveCname(hostname);
        if (targets.some((t) => lower(t) === lower(cnameTarget))) return { method: 'cname', error: null };
        problems.push(`CNAME ${hostname} points at ${targets.map(lower).join(', ')}, not ${cnameTarget}`);
      } catch (error) {
        problems.push(`CNAME ${hostname}: ${explain(error, 'CNAME')}`);
      }
      return { method: null, error: problems.join('; ') };
    },
  };
}
