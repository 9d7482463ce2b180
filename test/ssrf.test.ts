import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../src/core/net/address-policy';
import { BlockedUrlError, SafeFetch } from '../src/core/net/safe-fetch';
import { REFUSED_URLS } from './helpers/ssrf-addresses';

// The guard's own tests run with no range opened, as DESIGN.md requires.
const guard = new SafeFetch(new AddressPolicy([]));

describe('SSRF guard: refused addresses', () => {
  afterAll(() => guard.close());

  it.each(REFUSED_URLS)('refuses %s', async (url) => {
    await expect(guard.check(url)).rejects.toBeInstanceOf(BlockedUrlError);
    await expect(guard.fetch(url)).rejects.toBeInstanceOf(BlockedUrlError);
  });

  it('refuses a host name that resolves to a private address', async () => {
    await expect(guard.check('http://localhost:9/')).rejects.toThrow(/resolves to/);
    await expect(guard.fetch('http://localhost:9/')).rejects.toThrow(/forbidden address|resolves to/);
  });

  it('judges public unicast addresses as reachable', () => {
    const policy = new AddressPolicy([]);
    expect(policy.refusal('93.184.215.14')).toBeNull();
    expect(policy.refusal('2606:2800:21f:cb07:6820:80da:af6b:8b2c')).toBeNull();
    expect(policy.refusal('8.8.8.8')).toBeNull();
  });

  it('refuses IPv6 forms that carry an IPv4 address, in the syntax check and in DNS answers (connect time)', () => {
    const policy = new AddressPolicy([]);
    // As a URL host (WHATWG URL rewrites [::127.0.0.1] to [::7f00:1]) and as DNS writes an AAAA answer:
    // the connect-time lookup in SafeFetch judges each answer with this same refusal().
    expect(new URL('http://[::127.0.0.1]/').hostname).toBe('[::7f00:1]');
    expect(policy.refusal('::7f00:1')).toMatch(/IPv4-compatible IPv6 address wrapping 127\.0\.0\.1/);
    expect(policy.refusal('::127.0.0.1')).toMatch(/IPv4-compatible IPv6 address wrapping 127\.0\.0\.1/);
    expect(policy.refusal('::8.8.8.8')).toMatch(/IPv4-compatible/);
    expect(policy.refusal('::ffff:7f00:1')).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(policy.refusal('2002:a00:1::1')).toMatch(/6to4 address wrapping 10\.0\.0\.1/);
    expect(policy.refusal('64:ff9b::a9fe:a9fe')).toMatch(/NAT64 .* wrapping 169\.254\.169\.254/);
    expect(policy.refusal('2001:0:4136:e378:8000:63bf:80ff:fffe')).toMatch(/Teredo address wrapping 127\.0\.0\.1/);
    expect(policy.refusal('::ffff:0:7f00:1')).toMatch(/IPv4-translated/);
    expect(policy.refusal('4000::1')).toMatch(/outside global unicast/);
    // An opened IPv4 range does not open its IPv4-compatible spelling, which some stacks send elsewhere.
    expect(new AddressPolicy(['127.0.0.1/32']).refusal('::7f00:1')).not.toBeNull();
    expect(new AddressPolicy(['127.0.0.1/32']).refusal('::ffff:127.0.0.1')).toBeNull();
  });

  it('rejects a malformed ALLOW_PRIVATE_NETWORK_CIDRS entry', () => {
    expect(() => AddressPolicy.fromList('127.0.0.0/8, banana')).toThrow(/banana/);
  });
});

describe('SSRF guard: opened ranges and redirects', () => {
  let server: Server;
  let base: string;
  const open = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/to-metadata') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      } else if (req.url === '/to-loopback6') {
        res.writeHead(301, { location: 'http://[::1]/' }).end();
      } else if (req.url === '/to-ok') {
        res.writeHead(302, { location: '/ok' }).end();
      } else if (req.url === '/big') {
        res.end('x'.repeat(100_000));
      } else {
        res.end('ok');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await open.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reaches an opened range, and only that range', async () => {
    const res = await open.fetch(`${base}/ok`);
    expect(res.status).toBe(200);
    expect(res.body.toString()).toBe('ok');
    await expect(open.fetch('http://10.0.0.1/')).rejects.toBeInstanceOf(BlockedUrlError);
    await expect(guard.fetch(`${base}/ok`)).rejects.toBeInstanceOf(BlockedUrlError);
  });

  it('follows a redirect only when asked, re-checking every hop', async () => {
    const kept = await open.fetch(`${base}/to-ok`);
    expect(kept.status).toBe(302);
    const followed = await open.fetch(`${base}/to-ok`, { maxRedirects: 3 });
    expect(followed.status).toBe(200);
    expect(followed.url).toBe(`${base}/ok`);
    await expect(open.fetch(`${base}/to-metadata`, { maxRedirects: 3 })).rejects.toBeInstanceOf(BlockedUrlError);
    await expect(open.fetch(`${base}/to-loopback6`, { maxRedirects: 3 })).rejects.toBeInstanceOf(BlockedUrlError);
  });

  it('caps the response size', async () => {
    const res = await open.fetch(`${base}/big`, { maxBytes: 1000 });
    expect(res.body.length).toBe(1000);
    expect(res.truncated).toBe(true);
  });
});
