import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing } from '../helpers/browser';

const PHONE = { width: 390, height: 844 };
const css = (name: string) => readFileSync(new URL(`../../web/src/styles/${name}`, import.meta.url), 'utf8');
const FEEDBACK = css('feedback.css');
// The web app's own rules for what the cases below put on the page.
const APP_CSS = ['tokens.css', 'base.css', 'dialog.css', 'table.css'].map(css).join('\n');
const ID = `exp_${'01jd4q7x2m'.repeat(6)}`;

/**
 * The web app's alert in its dialog, as the A/B test dialog showed an API message naming an id: an
 * unbroken word wider than a phone inside a dialog that scrolls (overflow: auto), so nothing reached past
 * the window and the old check saw nothing.
 */
const ALERT_IN_DIALOG = `
  <dialog class="dialog dialog-md">
    <div class="dialog-header"><div class="dialog-titles"><h2>Earlier tests</h2></div></div>
    <div class="dialog-body">
      <div class="alert alert-danger" role="alert"><div>The test ${ID} is the link's newest now.</div></div>
    </div>
  </dialog>
  <script>document.querySelector('dialog').showModal()</script>`;

const browser: Browser | null = await launchBrowser();

/** overflowing(), the browser tests' check that nothing runs out of sight at a phone's width, on pages made to fail it or not. */
describe.skipIf(!browser)('overflowing()', () => {
  let page: Page;
  beforeAll(async () => {
    page = await browser!.newPage({ viewport: PHONE });
  });
  afterAll(() => browser?.close());

  async function render(body: string, feedbackCss = FEEDBACK) {
    await page.setContent(`<!doctype html><style>${APP_CSS}\n${feedbackCss}</style><body>${body}</body>`);
    await page.locator('body').evaluate(() => document.fonts.ready);
  }

  it('finds the id running past its alert inside a dialog with the alert CSS before 0f8484d, not with today’s', async () => {
    // The fix was one declaration in .alert; without it the rule is as it was.
    const fix = /\n\s*overflow-wrap: anywhere;/;
    expect(FEEDBACK.match(/\.alert \{[^}]*\}/)?.[0]).toMatch(fix);
    await render(ALERT_IN_DIALOG, FEEDBACK.replace(fix, ''));
    const found = await overflowing(page);
    expect(found.join('\n')).toContain(`text "The test ${ID.slice(0, 31)}`);
    expect(found[0]).toMatch(/^DIV in DIV\.alert\.alert-danger: text .* runs \d+px past its box$/);
    // What the check before this one looked at: nothing reached past the window.
    expect(await page.evaluate(() => [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > innerWidth + 1).length)).toBe(0);

    await render(ALERT_IN_DIALOG);
    expect(await overflowing(page)).toEqual([]);
  });

  it('finds a box cut off by an ancestor that clips, and one past the window', async () => {
    await render(`<div style="overflow: hidden; width: 200px"><div id="cut" style="width: 260px">a</div></div>`);
    expect(await overflowing(page)).toEqual([
      'DIV holds 60px more than it shows (overflow hidden)',
      'DIV#cut runs 60px past DIV, which cuts it off',
    ]);

    await render(`<div id="wide" style="width: 500px">wide</div>`);
    expect(await overflowing(page)).toEqual(["DIV#wide spans 0…500px, past the window's 0…390px"]);
  });

  it('finds a flex child that will not shrink below its content, and not once it may', async () => {
    const row = (minWidth: string) =>
      `<div class="row" style="width: 300px; border: 1px solid"><span>Link</span><code class="x" style="${minWidth}">${ID.slice(0, 40)}</code></div>`;
    await render(row(''));
    expect((await overflowing(page)).join('\n')).toMatch(/CODE\.x runs \d+px past its parent DIV\.row/);
    await render(row('min-width: 0; overflow-wrap: anywhere'));
    expect(await overflowing(page)).toEqual([]);
  });

  it('leaves alone what the page means: a table in a scrolling wrapper, an ellipsis, visually hidden text', async () => {
    await render(`
      <div class="table-wrap" style="overflow-x: auto"><table class="table" style="width: 900px"><tr><td>${ID}</td><td>wide</td></tr></table></div>
      <p class="truncate" style="width: 200px">${ID} cut with an ellipsis</p>
      <span class="visually-hidden">${ID} read by screen readers only</span>
      <a href="#main" style="position: absolute; left: -9999px">Skip to content</a>
      <div style="display: flex; width: 300px"><nav style="flex: 1; padding: 3px; margin: -3px">Room for focus rings</nav></div>`);
    expect(await overflowing(page)).toEqual([]);
  });

  it('counts a box past its parent when it can be seen there: with a background, not as padding alone', async () => {
    const bleed = (look: string) => `<div style="display: flex; width: 300px; margin: 20px"><nav style="flex: 1; padding: 3px; margin: -3px; ${look}">Steps</nav></div>`;
    await render(bleed(''));
    expect(await overflowing(page)).toEqual([]);
    await render(bleed('background: #eee'));
    expect(await overflowing(page)).toEqual(['NAV runs 3px past its parent DIV']);
  });
});
