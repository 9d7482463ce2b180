import * as CSSselect from 'css-select';
import type { Document, Element } from 'domhandler';
import { textContent } from 'domutils';
import { parseDocument } from 'htmlparser2';
import type { Browser } from 'playwright-core';
import type { GeneratedStep } from '../src/generation';
import { DISMISS_CONSENT_SCRIPT, FREEZE_MOTION_SCRIPT, VIEWPORT } from '../src/generation/capture-chromium';
import { DEFAULT_HOTSPOT_BOX, HOTSPOT_PADDING as PADDING } from '../src/generation/step-builder';
import { type Avoid, pagePath, type Target } from './corpus';
import { type Box, normalise, type Placement, type Relation, relate } from './score';

type Place = Target | Avoid;

/**
 * HTML mode: the player finds a hotspot's element by its selector in the step's snapshot, so that is
 * where the eval looks too, and where it finds the targets (the snapshot keeps ids and classes).
 */
export function locateInSnapshot(step: GeneratedStep, places: Place[]): Placement {
  const selector = step.hotspots[0]?.selector;
  if (!step.hotspots[0]) return { missing: 'no hotspot', on: [] };
  if (!step.html) return { missing: 'no snapshot to find the element in', on: [] };
  if (!selector) return { missing: 'no selector: the hotspot stays at its placeholder box', on: [] };
  const doc = parseDocument(step.html);
  relativeLinks(doc, new URL(step.pageUrl).origin);
  const el = CSSselect.selectOne(selector, doc) as Element | null;
  if (!el) return { missing: `${selector} finds nothing in the snapshot`, on: [] };
  const on: Placement['on'] = [];
  for (const place of places.filter((p) => p.page === pagePath(step.pageUrl))) {
    for (const candidate of CSSselect.selectAll(place.selector, doc) as unknown as Element[]) {
      const relation = treeRelation(el, candidate);
      if (relation) {
        on.push({ place, relation });
        break;
      }
    }
  }
  return { missing: null, on };
}

/** The snapshot's links are absolute; expected.json selectors say `a[href="/signup.html"]` as the site's markup does. */
function relativeLinks(doc: Document, origin: string): void {
  for (const el of CSSselect.selectAll('[href], [src], [action]', doc) as unknown as Element[]) {
    for (const name of ['href', 'src', 'action']) {
      const value = el.attribs[name];
      if (value?.startsWith(`${origin}/`)) el.attribs[name] = value.slice(origin.length);
    }
  }
}

function treeRelation(hotspot: Element, element: Element): Relation | null {
  if (hotspot === element) return 'same';
  for (let up = hotspot.parent; up; up = up.parent) if (up === element) return 'inside';
  for (let up = element.parent; up; up = up.parent) {
    if (up === hotspot) return normalise(textContent(hotspot)) === normalise(textContent(element)) ? 'wraps' : null;
  }
  return null;
}

/** The boxes (page pixels) of every place of one page, as Chromium lays the page out at rest; null when not shown. */
export type PageBoxes = Map<Place, Box | null>;

/**
 * Chromium mode: the step shows a screenshot whose top edge is at `imageTop` on the page, so the
 * hotspot's place on the page is known, and compared with where the browser lays out each target.
 */
export function locateByGeometry(step: GeneratedStep, boxes: PageBoxes): Placement {
  const hotspot = step.hotspots[0];
  if (!hotspot) return { missing: 'no hotspot', on: [] };
  if (!step.image || step.imageTop === undefined) return { missing: 'no screenshot', on: [] };
  const placeholder = (Object.keys(DEFAULT_HOTSPOT_BOX) as Array<keyof typeof DEFAULT_HOTSPOT_BOX>).every((k) => hotspot[k] === DEFAULT_HOTSPOT_BOX[k]);
  if (placeholder) return { missing: 'the hotspot is at its placeholder box', on: [] };
  const box: Box = {
    x: hotspot.x * step.width + PADDING,
    y: step.imageTop + hotspot.y * step.height + PADDING,
    width: hotspot.width * step.width - 2 * PADDING,
    height: hotspot.height * step.height - 2 * PADDING,
  };
  const on: Placement['on'] = [];
  for (const [place, placeBox] of boxes) {
    const relation = placeBox ? relate(box, placeBox) : null;
    if (relation) on.push({ place, relation });
  }
  return { missing: null, on };
}

/** Lays out one page in the eval's own browser as the capture does (viewport, motion frozen) and measures each place. */
export async function measurePage(browser: Browser, url: string, places: Place[]): Promise<PageBoxes> {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1 });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForLoadState('networkidle', { timeout: 2_500 }).catch(() => {});
    await page.evaluate(FREEZE_MOTION_SCRIPT);
    await page.evaluate(DISMISS_CONSENT_SCRIPT);
    const boxes: PageBoxes = new Map();
    for (const place of places) {
      const box = await page.evaluate((selector) => {
        const el = document.querySelector(selector);
        if (!el) return null;
        const rect = el.getBoundingClientRect();
        const shown = el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
        return shown && rect.width > 0 && rect.height > 0 ? { x: rect.x + scrollX, y: rect.y + scrollY, width: rect.width, height: rect.height } : null;
      }, place.selector);
      boxes.set(place, box);
    }
    return boxes;
  } finally {
    await context.close();
  }
}
