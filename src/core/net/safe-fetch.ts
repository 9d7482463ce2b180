// The SSRF guard: every server-side fetch of a user-given address goes through here.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, request } from 'undici';
import { AppError } from '../errors';
import type { AddressPolicy } from './address-policy';

/**
 * A 400 for an address the policy refuses (a private network, a bad scheme): the reason is the message.
 *
 * @example
 * ```ts
 * import { BlockedUrlError } from './safe-fetch';
 *
 * const refused = (error: unknown) => error instanceof BlockedUrlError;
 * ```
 */
export class BlockedUrlError extends AppError {
  constructor(reason: string) {
    super('invalid_request', `This address cannot be used: ${reason}`, { details: [{ field: 'url', message: reason }] });
  }
}

export interface SafeFetchInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Whole-exchange deadline, body included. */
  timeoutMs?: number;
  /** Larger responses are cut: `truncated` tells. */
  maxBytes?: number;
  /** 0: a redirect is returned as is (webhooks); otherwise followed by hand, each hop re-checked. */
  maxRedirects?: number;
}

export interface SafeResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  truncated: boolean;
  /** The address that answered, after redirects. */
  url: string;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The one client for server-side fetches of user-given addresses (DESIGN.md, SSRF). Every address a
 * connection is about to use is checked at connect time, after DNS, so a host name that resolves to a
 * private address, or that changes its answer between check and use (DNS rebinding), is refused.
 *
 * @example
 * ```ts
 * import { AddressPolicy } from './address-policy';
 * import { SafeFetch } from './safe-fetch';
 *
 * const net = new SafeFetch(AddressPolicy.fromList(undefined));
 * const page = await net.fetch('https://example.com/', { timeoutMs: 10_000, maxBytes: 5 * 1024 * 1024 });
 * if (page.truncated) console.warn(`${page.url} is larger than 5 MB`);
 * await net.close();
 * ```
 */
export class SafeFetch {
  private readonly agent: Agent;

  constructor(private readonly policy: AddressPolicy) {
    const guardedLookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, '', 0);
        const refused = addresses.map((a) => policy.refusal(a.address)).find((r) => r !== null);
        if (refused || addresses.length === 0) {
          return callback(new BlockedUrlError(`${hostname} resolves to a forbidden address (${refused ?? 'none'})`), '', 0);
        }
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
        const first = addresses[0]!;
        callback(null, first.address, first.family);
      });
    };
    this.agent = new Agent({ connect: { lookup: guardedLookup }, connections: 32 });
  }

  /** Throws BlockedUrlError unless `raw` is an http(s) URL without credentials whose host may be reached. */
  async check(raw: string | URL): Promise<URL> {
    const url = this.parse(raw);
    const host = hostOf(url);
    if (isIP(host)) {
      const refused = this.policy.refusal(host);
      if (refused) throw new BlockedUrlError(refused);
      return url;
    }
    const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
      dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
    ).catch((error: NodeJS.ErrnoException) => {
      throw new BlockedUrlError(`${host} does not resolve (${error.code ?? error.message})`);
    });
    for (const { address } of addresses) {
      const refused = this.policy.refusal(address);
      if (refused) throw new BlockedUrlError(`${host} resolves to ${refused}`);
    }
    return url;
  }

  /** Syntax-only checks (scheme, credentials, IP literals), for validating input without DNS. */
  parse(raw: string | URL): URL {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new BlockedUrlError('not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new BlockedUrlError(`the ${url.protocol.replace(':', '')} scheme is not allowed (use http or https)`);
    }
    if (url.username || url.password) throw new BlockedUrlError('credentials in the URL are not allowed');
    const host = hostOf(url);
    if (isIP(host)) {
      const refused = this.policy.refusal(host);
      if (refused) throw new BlockedUrlError(refused);
    }
    return url;
  }

  async fetch(raw: string | URL, init: SafeFetchInit = {}): Promise<SafeResponse> {
    const deadline = AbortSignal.timeout(init.timeoutMs ?? 10_000);
    const maxBytes = init.maxBytes ?? 5 * 1024 * 1024;
    let url = this.parse(raw);
    let method = init.method ?? 'GET';
    let body = init.body;
    for (let hop = 0; ; hop++) {
      const res = await request(url, {
        method: method as 'GET',
        headers: init.headers,
        body,
        dispatcher: this.agent,
        signal: deadline,
        maxRedirections: 0,
      } as Parameters<typeof request>[1]);
      const headers = flattenHeaders(res.headers);
      const location = headers.location;
      if (REDIRECTS.has(res.statusCode) && location && hop < (init.maxRedirects ?? 0)) {
        await res.body.dump();
        url = this.parse(new URL(location, url));
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
        }
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        if (size + buf.length > maxBytes) {
          chunks.push(buf.subarray(0, maxBytes - size));
          truncated = true;
          res.body.destroy();
          break;
        }
        chunks.push(buf);
        size += buf.length;
      }
      return { status: res.statusCode, headers, body: Buffer.concat(chunks), truncated, url: url.toString() };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
