// Which IP addresses a server-side fetch may reach: public ones, and the private ranges ALLOW_PRIVATE_NETWORK_CIDRS names.
import ipaddr from 'ipaddr.js';

type Cidr = [ipaddr.IPv4 | ipaddr.IPv6, number];

/**
 * Which IP addresses a server-side fetch of a user-given URL may reach: public unicast only. Loopback,
 * private, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT, unspecified, multicast,
 * reserved, IPv6 forms that embed an IPv4 address (IPv4-compatible ::a.b.c.d, 6to4, Teredo, NAT64; a
 * mapped ::ffff:a.b.c.d is judged as its IPv4 address) and IPv6 outside global unicast 2000::/3 are
 * refused, unless the operator opened a range with ALLOW_PRIVATE_NETWORK_CIDRS (local development and
 * tests). The same judgement serves the syntax check of IP literals and the connect-time check of DNS
 * answers (SafeFetch).
 *
 * @example
 * ```ts
 * import { AddressPolicy } from './address-policy';
 *
 * const policy = AddressPolicy.fromList('10.0.0.0/8'); // ALLOW_PRIVATE_NETWORK_CIDRS
 * policy.refusal('10.1.2.3'); // null: allowed
 * policy.refusal('127.0.0.1'); // '127.0.0.1 is a loopback address'
 * ```
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
      ip = parseAddress(address);
    } catch {
      return `"${address}" is not an IP address`;
    }
    // A mapped address (::ffff:a.b.c.d) is judged as the IPv4 address it is.
    if (ip instanceof ipaddr.IPv6 && ip.isIPv4MappedAddress()) ip = ip.toIPv4Address();
    if (this.allowed.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return null;
    if (ip instanceof ipaddr.IPv4) {
      const range = ip.range();
      return range === 'unicast' ? null : `${ip.toString()} is a ${range} address`;
    }
    return ipv6Refusal(ip);
  }
}

/** IPv6 outside global unicast (2000::/3), where every public IPv6 address is. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
/** IPv4-compatible IPv6 (::a.b.c.d, RFC 4291 §2.5.5.1, deprecated): ::7f00:1 is 127.0.0.1 to some stacks. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/**
 * An IPv6 address that is not plain public unicast: ranges ipaddr.js names (6to4, Teredo, NAT64, ...),
 * with the IPv4 address they carry named in the refusal, and everything outside 2000::/3 (IPv4-compatible
 * ::a.b.c.d, ::, ::1, ULA, link-local, multicast, unassigned).
 */
function ipv6Refusal(ip: ipaddr.IPv6): string | null {
  const range = ip.range();
  const carried = embeddedIPv4(ip, range);
  const wraps = carried ? ` wrapping ${carried.toString()}` : '';
  if (range !== 'unicast') return `${ip.toString()} is ${RANGE_NAMES[range] ?? `a ${range}`} address${wraps}`;
  if (ip.match(IPV4_COMPATIBLE)) return `${ip.toString()} is an IPv4-compatible IPv6 address wrapping ${lastIPv4(ip).toString()}`;
  if (!ip.match(GLOBAL_UNICAST)) return `${ip.toString()} is outside global unicast (2000::/3)`;
  return null;
}

const RANGE_NAMES: Record<string, string> = {
  '6to4': 'a 6to4',
  rfc6052: 'a NAT64 (RFC 6052)',
  rfc6145: 'an IPv4-translated (RFC 6145)',
  teredo: 'a Teredo',
  ipv4Mapped: 'an IPv4-mapped',
};

/** The IPv4 address carried by a 6to4, NAT64 or Teredo address, for the refusal's wording. */
function embeddedIPv4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 | null {
  const b = ip.toByteArray();
  if (range === '6to4') return new ipaddr.IPv4(b.slice(2, 6));
  if (range === 'rfc6052') return lastIPv4(ip);
  // Teredo's client address is stored inverted in the last 32 bits (RFC 4380 §4).
  if (range === 'teredo') return new ipaddr.IPv4(b.slice(12, 16).map((x) => x ^ 0xff));
  return null;
}

const lastIPv4 = (ip: ipaddr.IPv6) => new ipaddr.IPv4(ip.toByteArray().slice(12, 16));

/**
 * ipaddr.js reads the dotted form `::a.b.c.d` as the mapped `::ffff:a.b.c.d`; WHATWG URL and DNS answers
 * write it `::7f00:1`. The dotted tail is rewritten as two hex groups first, so both forms are one address.
 */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const dotted = /^(.*:)(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.exec(address);
  if (dotted && ipaddr.IPv4.isValidFourPartDecimal(dotted[2]!)) {
    const [a, b, c, d] = ipaddr.IPv4.parse(dotted[2]!).octets as [number, number, number, number];
    return ipaddr.IPv6.parse(`${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`);
  }
  return ipaddr.process(address);
}
