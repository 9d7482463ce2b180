import { selectOne } from 'css-select';
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { createGenerator, GenerationError, type GenerationResult } from '../src/generation';
import { type ForbiddenServer, startForbiddenServer, startTestSite, type TestSite } from './helpers/site-server';
import { testDocumentPool } from './helpers/documents';

// The HTML capture mode: no browser, the page fetched through the SSRF guard and parsed.
describe('generation without a browser (HTML capture)', () => {
  let forbidden: ForbiddenServer;
  let site: TestSite;
  const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  const documents = testDocumentPool();
  const generator = createGenerator({ net, documents, chromiumPath: null });
  let tour: GenerationResult;

  beforeAll(async () => {
    forbidden = await startForbiddenServer();
    site = await startTestSite(forbidden);
    tour = await generator.generate({ url: `${site.origin}/` });
  });
  afterAll(async () => {
    await generator.close();
    await net.close();
    await documents.close();
    await site?.close();
    await forbidden?.close();
  });

  it('writes a tour in a sensible order from what the pages say', () => {
    expect(tour.captureMode).toBe('html');
    expect(tour.writer).toBe('builtin');
    expect(tour.title).toBe('Orbit — Product tours people finish');
    expect(tour.steps.length).toBeGreaterThanOrEqual(4);
    expect(tour.steps.length).toBeLessThanOrEqual(10);

    const [hero, cta] = tour.steps;
    expect(hero!.title).toBe('Turn your product into a tour people finish');
    // The words are the writer's (src/generation/step-writer.ts, its own tests); here, what was read and where it points.
    expect(hero!.hotspots[0]!.selector).toMatch(/h1$/);
    expect(cta!.title).toBe('Click “Start free trial”');
    expect(cta!.hotspots[0]!.selector).toBe('#hero-cta');

    const nav = tour.steps.find((s) => s.title === 'Find your way around');
    expect(nav?.description).toContain('Features, Pricing, Docs, Blog and Sign up');

    const features = tour.steps.find((s) => s.title === 'Everything you need to show, not tell');
    expect(features?.description).toContain('Click-through demos, Share links with guardrails and Analytics that name the drop-off');
  });

  it('follows same-origin links to the pricing and sign-up pages', () => {
    const pricing = tour.steps.find((s) => s.pageUrl === `${site.origin}/pricing.html`);
    expect(pricing?.title).toBe('Simple pricing that grows with you');
    expect(pricing?.description).toContain('Starter at $0, Growth at $29/month (most popular) and Scale at $99/month');

    const signup = tour.steps.find((s) => s.pageUrl === `${site.origin}/signup.html`);
    expect(signup?.title).toBe('Create your Orbit account');
    expect(signup?.description).toContain('Fill in “Full name”, “Work email” and “Password”, then press “Create account”');

    // Order: the home page's hero, call to action, navigation and features, then each further page's steps
    // together, pages in the order they were visited (never back and forth between pages).
    const order = tour.steps.map((s) => s.title);
    expect(order.slice(0, 2)).toEqual(['Turn your product into a tour people finish', 'Click “Start free trial”']);
    const pagesInOrder = tour.steps.map((s) => s.pageUrl).filter((url, i, all) => url !== all[i - 1]);
    expect(new Set(pagesInOrder).size).toBe(pagesInOrder.length);
    expect(pagesInOrder[0]).toBe(`${site.origin}/`);
    expect(new Set(order).size).toBe(order.length);
  });

  it('never leaves the site: external and private links are not followed, a redirect out is refused', () => {
    for (const step of tour.steps) expect(step.pageUrl.startsWith(site.origin)).toBe(true);
    expect(tour.warnings.some((w) => w.startsWith(`Skipped ${site.origin}/docs`) && /cannot be used/.test(w))).toBe(true);
    expect(site.requests).not.toContain('/privacy.html');
    expect(forbidden.connections).toBe(0);
  });

  it('keeps a sanitised snapshot whose hotspot selectors find their elements', () => {
    for (const step of tour.steps) {
      expect(step.image).toBeUndefined();
      expect(step.html).toBeDefined();
      const html = step.html!;
      expect(html).not.toMatch(/<script|\son\w+=|javascript:/i);
      expect(html).toContain('Content-Security-Policy');
      const [hotspot] = step.hotspots;
      expect(hotspot!.action).toEqual({ type: 'next' });
      for (const v of [hotspot!.x, hotspot!.y, hotspot!.width, hotspot!.height]) expect(v).toBeGreaterThanOrEqual(0);
      const found = selectOne(hotspot!.selector!, parseDocument(html));
      expect(found, hotspot!.selector!).not.toBeNull();
      if (step.title.startsWith('Click')) expect(textContent(found!)).toBe('Start free trial');
    }
    // Stylesheets come inline, with their URLs made absolute.
    expect(tour.steps[0]!.html).toContain('.hero h1 {');
    expect(tour.steps[0]!.html).toContain(`href="${site.origin}/features.html"`);
  });

  it('keeps nothing of a page that tries to reach forbidden addresses', async () => {
    const attack = await generator.generate({ url: `${site.origin}/attack.html`, maxPages: 0 });
    expect(attack.steps[0]!.title).toBe('Launch week is here');
    const html = attack.steps[0]!.html!;
    expect(html).not.toMatch(/<script|<iframe|<object|<embed|<video|<animate|\son\w+=|javascript:|formaction|refresh|preconnect|prefetch|preload/i);
    expect(html).not.toContain(forbidden.origin);
    expect(html).not.toContain('169.254.169.254');
    expect(html).not.toMatch(/<form[^>]*action=/);
    expect(forbidden.connections).toBe(0);
  });

  it('refuses a forbidden start address before fetching anything', async () => {
    await expect(generator.generate({ url: 'http://169.254.169.254/latest/meta-data/' })).rejects.toBeInstanceOf(GenerationError);
    await expect(generator.generate({ url: `${forbidden.origin}/` })).rejects.toThrow(/cannot be used/);
    await expect(generator.generate({ url: 'file:///etc/passwd' })).rejects.toThrow(/scheme is not allowed/);
    expect(forbidden.connections).toBe(0);
  });

  it('falls back to HTML capture, with a warning, when the browser does not start', async () => {
    const broken = createGenerator({ net, documents, chromiumPath: '/bin/false' });
    try {
      const result = await broken.generate({ url: `${site.origin}/`, maxPages: 0 });
      expect(result.captureMode).toBe('html');
      expect(result.steps[0]!.title).toBe('Turn your product into a tour people finish');
      expect(result.warnings.some((w) => w.startsWith('The browser could not start'))).toBe(true);
    } finally {
      await broken.close();
    }
  });

  it('reports a page that cannot be captured in words', async () => {
    await expect(generator.generate({ url: `${site.origin}/missing.html` })).rejects.toThrow(/answered HTTP 404/);
    await expect(generator.generate({ url: `${site.origin}/style.css` })).rejects.toThrow(/is not a web page \(text\/css\)/);
  });
});
