import { mkdirSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../src/core/net/address-policy';
import { SafeFetch } from '../src/core/net/safe-fetch';
import { createGenerator, type GenerationResult } from '../src/generation';
import { findChromium } from '../src/generation/chromium';
import { type ForbiddenServer, startForbiddenServer, startTestSite, type TestSite } from './helpers/site-server';
import { testDocumentPool } from './helpers/documents';

const found = findChromium();
const chromiumPath = found.path;
const hasChromium = chromiumPath !== null;
if (!hasChromium) console.warn(`\n*** SKIPPED: generation-chromium tests need Chromium: ${found.reason}. ***\n`);

function pngSize(data: Buffer): { width: number; height: number } {
  expect(data.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(data.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

describe.skipIf(!hasChromium)('generation in Chromium', () => {
  let forbidden: ForbiddenServer;
  let site: TestSite;
  const net = new SafeFetch(AddressPolicy.fromList('127.0.0.1/32'));
  const documents = testDocumentPool();
  const logged: string[] = [];
  const generator = createGenerator({
    net,
    documents,
    chromiumPath,
    log: { info: (_d, message) => logged.push(message), warn: (_d, message) => logged.push(message) },
  });
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

  it('captures screenshots of 1280×800 with a hotspot on each step’s element', () => {
    expect(tour.captureMode).toBe('chromium');
    expect(tour.steps.length).toBeGreaterThanOrEqual(4);
    mkdirSync('test-results/generation', { recursive: true });
    tour.steps.forEach((step, i) => {
      expect(step.image?.contentType).toBe('image/png');
      expect(pngSize(step.image!.data)).toEqual({ width: 1280, height: 800 });
      expect([step.width, step.height]).toEqual([1280, 800]);
      writeFileSync(`test-results/generation/step-${i + 1}.png`, step.image!.data);
      const [h] = step.hotspots;
      expect(h!.x + h!.width).toBeLessThanOrEqual(1);
      expect(h!.y + h!.height).toBeLessThanOrEqual(1);
      expect(h!.width * h!.height).toBeGreaterThan(0);
    });
  });

  it('tells the same story as the page: hero, call to action, navigation, features, sign-up, pricing', () => {
    const [hero, cta, nav] = tour.steps;
    expect(hero!.title).toBe('Turn your product into a tour people finish');
    expect(cta!.title).toBe('Click “Start free trial”');
    expect(cta!.hotspots[0]!.selector).toBe('#hero-cta');
    // A button, not a section: small, below the headline, inside the first screen.
    const button = cta!.hotspots[0]!;
    expect(button.width).toBeLessThan(0.3);
    expect(button.height).toBeLessThan(0.15);
    expect(button.y).toBeGreaterThan(hero!.hotspots[0]!.y);
    expect(nav!.hotspots[0]!.y).toBeLessThan(0.1);

    const pricing = tour.steps.find((s) => s.pageUrl === `${site.origin}/pricing.html`);
    expect(pricing?.description).toContain('Growth at $29/month (most popular)');
    const signup = tour.steps.find((s) => s.pageUrl === `${site.origin}/signup.html`);
    expect(signup?.description).toContain('“Work email”');
    expect(signup?.description).toContain('press “Create account”');
  });

  it('shows elements further down the page on a screenshot scrolled to them', () => {
    const features = tour.steps.find((s) => s.title === 'Everything you need to show, not tell')!;
    expect(features.image!.data.equals(tour.steps[0]!.image!.data)).toBe(false);
    const h = features.hotspots[0]!;
    expect(h.y).toBeGreaterThan(0);
    expect(h.y + h.height).toBeLessThanOrEqual(1);
  });

  it('measures an animated page as it ends up: motion is frozen before boxes and screenshots', async () => {
    const animated = await generator.generate({ url: `${site.origin}/animated.html`, maxPages: 0 });
    const hero = animated.steps.find((s) => s.title === 'Deploys that glide into production');
    expect(animated.steps.map((s) => s.title)).toContain('Deploys that glide into production');
    writeFileSync('test-results/generation/animated-hero.png', hero!.image!.data);
    // The headline's final box: 80 px from the left, 640 px wide (less the hotspot's padding of 6 px).
    const [h] = hero!.hotspots;
    expect(h!.x * 1280).toBeCloseTo(74, 0);
    expect(h!.width * 1280).toBeCloseTo(652, 0);
  });

  it('answers every browser request through the guard: nothing reaches a forbidden address', async () => {
    expect(tour.warnings.some((w) => w.startsWith(`Skipped ${site.origin}/docs`))).toBe(true);
    const attack = await generator.generate({ url: `${site.origin}/attack.html`, maxPages: 0 });
    // The page's meta refresh, scripts, frames, popups, sockets, beacons and redirects all went nowhere.
    expect(attack.steps[0]!.title).toBe('Launch week is here');
    expect(attack.steps[0]!.pageUrl).toBe(`${site.origin}/attack.html`);
    writeFileSync('test-results/generation/attack.png', attack.steps[0]!.image!.data);
    expect(forbidden.requests).toEqual([]);
    expect(forbidden.connections).toBe(0);
    // One browser served every job.
    expect(logged.filter((m) => m === 'generation: browser started')).toHaveLength(1);
  });
});
