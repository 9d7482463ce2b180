// What a custom domain may be: one normal form (lower-case punycode, no trailing dot), and the names refused.
import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { invalid } from '../core/errors';

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A Host header's name as the routing compares it: port and trailing dot dropped, lower case, IDN as
 * punycode. '' for what cannot be a host name.
 *
 * @example
 * hostKey('Demos.Example.COM.:443'); // 'demos.example.com'
 */
export function hostKey(host: string): string {
  let name = host.trim();
  if (name.startsWith('[')) return name.toLowerCase(); // an IPv6 literal, kept as is (never a custom domain)
  const colon = name.lastIndexOf(':');
  if (colon !== -1) name = name.slice(0, colon);
  name = name.replace(/\.+$/, '');
  return name ? domainToASCII(name) : '';
}

/**
 * The normal form of a domain an admin typed, or a 400 saying why it cannot be one: not a URL, not an
 * address, not a single label or `localhost`, not the instance's own host name or a name under it (those
 * are the operator's: a workspace must not answer on them).
 *
 * @example
 * normaliseDomain('Démos.Example.com.', ['app.demoshare.io']); // 'xn--dmos-bpa.example.com'
 */
export function normaliseDomain(input: string, instanceHosts: readonly string[]): string {
  const bad = (message: string) => invalid(message, [{ field: 'hostname', message }]);
  const raw = input.trim();
  if (/[/:@?#\s*]/.test(raw)) throw bad('Give a host name only, such as demos.example.com (no scheme, port, path or wildcard)');
  const name = domainToASCII(raw.replace(/\.$/, ''));
  if (!name) throw bad(`"${raw}" is not a valid domain name`);
  if (isIP(name)) throw bad('An IP address cannot be a custom domain: give a host name');
  const labels = name.split('.');
  if (labels.length < 2 || name.length > 253 || !labels.every((l) => LABEL.test(l))) {
    throw bad(`"${raw}" is not a valid domain name (a name such as demos.example.com)`);
  }
  if (/^\d+$/.test(labels.at(-1) as string)) throw bad('An IP address cannot be a custom domain: give a host name');
  if (name === 'localhost' || name.endsWith('.localhost')) throw bad('localhost cannot be a custom domain');
  for (const own of instanceHosts) {
    if (name === own || name.endsWith(`.${own}`)) throw bad(`${name} is this instance's own address: give a domain of yours`);
  }
  return name;
}

/**
 * The host names that are the instance itself (APP_URL's, API_URL's), which are never custom domains.
 *
 * @example
 * instanceHostsOf({ APP_URL: 'https://app.demoshare.io' }); // ['app.demoshare.io']
 */
export function instanceHostsOf(config: { APP_URL: string; API_URL?: string }): string[] {
  return [...new Set([config.APP_URL, config.API_URL].filter((u): u is string => !!u).map((u) => hostKey(new URL(u).host)))];
}

/** IP literals and localhost reach the instance as itself (health checks, a proxy on the same machine). */
export function isInstanceAlias(host: string): boolean {
  return host === '' || host === 'localhost' || host.endsWith('.localhost') || host.startsWith('[') || isIP(host) !== 0;
}
