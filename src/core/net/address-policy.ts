import ipaddr from 'ipaddr.js';

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Which IP addresses a server-side fetch of a user-given URL may reach: public unicast only. Loopback,
 * private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, unspecified, multicast,
 * reserved, and IPv6 forms that embed an IPv4 address (mapped, 6to4, Teredo, NAT64) are refused, unless
 * the operator opened a range with ALLOW_PRIVATE_NETWORK_CIDRS (local development and tests).
 */
export class AddressPolicy {
  private readonly allowed: Cidr[];

  constructor(allowCidrs: string[] = []) {
    this.allowed = allowCidrs.map((cidr) => {
      try {
        return ipaddr.parseCIDR(cidr.trim());
      } catch {
        throw new Error(`ALLOW_PRIVATE_NETWORK_CIDRS: "${cidr}" is not a CIDR range such as 127.0.0.0/8`);
      }
    });
  }

  static fromList(list: string | undefined): AddressPolicy {
    return new AddressPolicy((list ?? '').split(',').map((s) => s.trim()).filter(Boolean));
  }

  /** Why `address` may not be reached, or null when it may. */
  refusal(address: string): string | null {
    let ip: ipaddr.IPv4 | ipaddr.IPv6;
    try {
      // process() turns ::ffff:a.b.c.d into a.b.c.d, so a mapped address is judged as the IPv4 it is.
      ip = ipaddr.process(address);
    } catch {
      return `"${address}" is not an IP address`;
    }
    if (this.allowed.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return null;
    const range = ip.range();
    return range === 'unicast' ? null : `${ip.toString()} is a ${range} address`;
  }
}
