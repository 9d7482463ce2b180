// The pure parts of the comparison: selectors looked up in a snapshot, the picture difference, and why a page could not be captured.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { BlockedUrlError } from '../core/net/safe-fetch';
import { CaptureError } from '../generation/capture-error';
import { pictureDifference } from './image-diff';
import { failureOf } from './recapture';
import { queryTargets } from './target-query';

const png = (svg: string) => sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">${svg}</svg>`)).png().toBuffer();
const button = (label: string, x = 40) =>
  `<rect width="400" height="200" fill="#fff"/><rect x="${x}" y="60" width="200" height="60" fill="#4f46e5"/><text x="${x + 20}" y="100" font-size="24" fill="#fff">${label}</text>`;

describe('queryTargets', () => {
  const html = '<main><h1 id="title">Hello <b>you</b></h1><input id="q" placeholder="Search invoices"><form><input type="PASSWORD"></form></main>';

  it('finds each selector with the words a person reads, and which known selector is the same element', () => {
    expect(queryTargets(html, ['#title', 'main > h1', '#q', '#gone', 'p[', 'input[type=password i]'], ['#title'])).toEqual([
      { found: true, text: 'Hello you', same: 0 },
      { found: true, text: 'Hello you', same: 0 },
      { found: true, text: 'Search invoices', same: null },
      { found: false, text: null },
      { found: false, text: null },
      { found: true, text: '', same: null },
    ]);
  });
});

describe('pictureDifference', () => {
  it('is 0 for the same picture, large for another word, and compares the parts named', async () => {
    const start = await png(button('Start trial'));
    expect(await pictureDifference(start, null, await png(button('Start trial')), null)).toBe(0);
    const other = await pictureDifference(start, { x: 0.1, y: 0.3, width: 0.5, height: 0.3 }, await png(button('Buy it now')), { x: 0.1, y: 0.3, width: 0.5, height: 0.3 });
    expect(other).toBeGreaterThan(0.03);
    // The button moved 100 px right: its own part, cut where it is now, is the same picture.
    const moved = await png(button('Start trial', 140));
    expect(await pictureDifference(start, { x: 0.1, y: 0.3, width: 0.5, height: 0.3 }, moved, { x: 0.35, y: 0.3, width: 0.5, height: 0.3 })).toBe(0);
    expect(await pictureDifference(start, null, moved, null)).toBeGreaterThan(0.05);
  });
});

describe('failureOf', () => {
  it('names a sign-in, a missing page, a refused address and a timeout', () => {
    expect(failureOf(new CaptureError('http://x/ answered HTTP 401')).reason).toBe('login_required');
    expect(failureOf(new CaptureError('http://x/ answered HTTP 403')).reason).toBe('login_required');
    expect(failureOf(new CaptureError('http://x/ answered HTTP 404')).reason).toBe('not_found');
    expect(failureOf(new CaptureError('http://x/ answered HTTP 502')).reason).toBe('http_error');
    expect(failureOf(new BlockedUrlError('a private address')).reason).toBe('blocked');
    expect(failureOf(new CaptureError('http://x/ did not load (Timeout 3000ms exceeded)')).reason).toBe('timeout');
    expect(failureOf(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })).reason).toBe('unreachable');
  });
});
