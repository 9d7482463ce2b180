import { mkdirSync, writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FetchResource, SerializedSnapshot } from '../extension/src/content/snapshot';
import { frameSelector, leadingImports, partSelector, shadowSelector, wrapImportConditions } from '../extension/src/content/snapshot-css';
import { launchBrowser } from './helpers/browser';
import { INVOICE_FORM, openInvoiceForm, type RecorderApp, startRecorderApp } from './helpers/recorder-app';
import {
  freezeTimes,
  injectSnapshot,
  nodeFetchResource,
  offlineSnapshotPage,
  quantile,
  type SnapshotGlobal,
  sanitizeSnapshot,
  snapshotOnce,
} from './helpers/snapshot-harness';

declare global {
  interface Window {
    __demoshareSnapshot: SnapshotGlobal;
    __fetchResource: FetchResource;
    __frozen?: ReturnType<SnapshotGlobal['freezeDocument']>;
    __frozenAt?: { freezeMs: number; pathname: string };
  }
}

const browser = await launchBrowser();
const VIEWPORT = { width: 1280, height: 900 };
const { apiSecret: SECRET, card: CARD, redactedEmail: EMAIL } = INVOICE_FORM;

/** Computed styles the snapshot must reproduce, read in the live page (in its frame or shadow root where needed). */
const CHECKS = [
  // From the cross-origin theme.css (unreadable through the CSSOM: fetched as text).
  { name: 'sidebar (cross-origin CSS)', selector: '.sidebar', props: ['background-color', 'color'] },
  // From theme-extra.css, @imported by theme.css.
  { name: 'primary button (@import)', selector: '#create-invoice-submit', props: ['background-color', 'color', 'border-radius'] },
  // The web font, declared in the cross-origin CSS with a URL relative to it.
  { name: 'title (web font)', selector: '.page-title', props: ['font-family', 'font-size'] },
  // CSS-in-JS inserted with insertRule (the style element's text is empty).
  { name: 'draft badge (insertRule)', selector: '.status-draft', props: ['background-color', 'color', 'padding-left'] },
  { name: 'form outline (insertRule)', selector: '#invoice-form', props: ['outline-color', 'outline-width'] },
  // An adopted constructed stylesheet.
  { name: 'form actions (adoptedStyleSheets)', selector: '.form-actions', props: ['justify-content', 'border-top-style', 'border-top-color'] },
  // Same-origin CSS.
  { name: 'layout (same-origin CSS)', selector: '.layout', props: ['grid-template-columns'] },
] as const;

type Styles = Record<string, Record<string, string>>;

async function readStyles(page: Page, snapshot: boolean): Promise<Styles> {
  return page.evaluate(
    ({ checks, snapshot }) => {
      const out: Record<string, Record<string, string>> = {};
      const read = (name: string, el: Element | null | undefined, props: readonly string[]) => {
        const style = el ? getComputedStyle(el) : null;
        out[name] = Object.fromEntries(props.map((p) => [p, style ? style.getPropertyValue(p) : 'MISSING']));
      };
      for (const check of checks) read(check.name, document.querySelector(check.selector), check.props);
      // The shadow root's pill: in the live page inside the shadow root, in the snapshot flattened into the host.
      const host = document.querySelector('.muted invoice-status');
      read('status pill (shadow root)', snapshot ? host?.querySelector('.pill') : host?.shadowRoot?.querySelector('.pill'), [
        'background-color',
        'color',
        'border-top-left-radius',
      ]);
      // The iframe's title and total: in the live page inside the frame, in the snapshot inside the div standing in for it.
      const frameDoc = snapshot ? document.querySelector('[data-ds-frame]') : (document.querySelector('#preview') as HTMLIFrameElement).contentDocument;
      read('frame title (iframe CSS)', frameDoc?.querySelector('.preview-title'), ['color', 'font-size', 'letter-spacing', 'text-transform', 'font-family']);
      read('frame total (html.preview selector)', frameDoc?.querySelector('.total'), ['font-weight', 'border-top-width', 'border-top-color']);
      return out;
    },
    { checks: CHECKS, snapshot },
  );
}

describe.skipIf(!browser)('extension DOM snapshot in Chromium', () => {
  let app: RecorderApp;
  let context: BrowserContext;
  let page: Page;
  let snapshot: SerializedSnapshot;
  let sanitized: string;
  let live: Styles;
  const fetched: string[] = [];

  beforeAll(async () => {
    app = await startRecorderApp();
    context = await browser!.newContext({ viewport: VIEWPORT });
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await context.exposeFunction('__fetchResource', nodeFetchResource(context, fetched));

    await openInvoiceForm(page, app);
    live = await readStyles(page, false);
    mkdirSync('test-results/extension-snapshot', { recursive: true });
    await page.screenshot({ path: 'test-results/extension-snapshot/live.png' });

    // As the recorder does: freeze in a capture-phase click listener, before the app handles the click.
    await injectSnapshot(page);
    await page.evaluate(() => {
      // As the recorder does: scrolling is tracked from the start of recording, so a freeze reads few offsets.
      const scroll = window.__demoshareSnapshot.trackScrolling(document);
      document.getElementById('activity')!.scrollTop = 40;
      document.addEventListener(
        'click',
        (event) => {
          const started = performance.now();
          window.__frozen = window.__demoshareSnapshot.freezeDocument(document, { target: event.target as Element, scroll });
          window.__frozenAt = { freezeMs: performance.now() - started, pathname: location.pathname };
        },
        { capture: true, once: true },
      );
    });
    // The scroll event is dispatched at the next frame: let it reach the tracker.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    await page.click('#create-invoice-submit');
    // The app reacted to the click (it saved the invoice and went back to the list) after the freeze.
    await page.waitForURL('**/app/invoices');
    snapshot = await page.evaluate(() => window.__demoshareSnapshot.serializeFrozen(window.__frozen!, { fetchResource: window.__fetchResource }));
    sanitized = sanitizeSnapshot(snapshot.html, `${app.url}app/invoices/new`);
    writeFileSync('test-results/extension-snapshot/snapshot.html', snapshot.html);
    writeFileSync('test-results/extension-snapshot/sanitized.html', sanitized);
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
  });

  it('freezes the page as it was when clicked, before the app reacted', async () => {
    const frozenAt = await page.evaluate(() => window.__frozenAt!);
    expect(frozenAt.pathname).toBe('/app/invoices/new');
    expect(page.url()).toMatch(/\/app\/invoices$/);
    expect(sanitized).toContain('New invoice');
    expect(sanitized).not.toContain('INV-1044'); // the invoice the click created
    console.log(
      `fixture app: freeze ${frozenAt.freezeMs.toFixed(1)} ms in the click handler, serialise ${snapshot.stats.serializeMs.toFixed(0)} ms, ` +
        `${snapshot.bytes} bytes (${snapshot.stats.inlinedResources} resources inlined, ${snapshot.stats.inlinedBytes} bytes of them)`,
    );
  });

  it('keeps what was typed in ordinary fields and drops secrets, card numbers and redacted content', () => {
    for (const html of [snapshot.html, sanitized]) {
      expect(html).toContain('Acme GmbH');
      expect(html).toContain('4200');
      expect(html).toContain('2026-12-31');
      expect(html).toContain('Net 30, thank you!');
      expect(html).not.toContain(SECRET);
      expect(html).not.toContain(CARD);
      expect(html).not.toContain(CARD.replaceAll(' ', ''));
      expect(html).not.toContain(EMAIL);
      expect(html).not.toContain('jane.doe');
    }
    // The scrolled activity list carries its offset, for the player to restore.
    expect(sanitized).toMatch(/<ul class="activity" id="activity" data-ds-scroll="0,40">/);
    // The redacted e-mail became bullets of the same length.
    expect(sanitized).toContain('•'.repeat(EMAIL.length));
  });

  it('renders offline after the server’s sanitiser with the live page’s styles, font, image, shadow root and iframe', async () => {
    const offline = await offlineSnapshotPage(browser!, sanitized, VIEWPORT);
    try {
      expect(JSON.stringify(live)).not.toContain('MISSING');
      const styles = await readStyles(offline.page, true);
      expect(styles).toEqual(live);
      const state = await offline.page.evaluate(() => {
        const form = document.querySelector('#invoice-form') as HTMLFormElement;
        const images = [...document.querySelectorAll('img')].map((img) => ({ src: img.src.slice(0, 22), loaded: img.complete && img.naturalWidth > 0 }));
        const fonts = [...document.fonts].map((face) => `${face.family} ${face.status}`);
        return {
          target: document.querySelector('[data-ds-target]')?.textContent,
          client: (form.elements.namedItem('client') as HTMLInputElement).value,
          currency: (form.elements.namedItem('currency') as HTMLSelectElement).value,
          notes: (form.elements.namedItem('notes') as HTMLTextAreaElement).value,
          reminder: (form.elements.namedItem('reminder') as HTMLInputElement).checked,
          secret: (form.elements.namedItem('apiSecret') as HTMLInputElement).value,
          card: (form.elements.namedItem('card') as HTMLInputElement).value,
          frameTotal: document.querySelector('[data-ds-frame] .total')?.textContent,
          frameBox: document.querySelector('[data-ds-frame]')?.getBoundingClientRect().height,
          chart: (document.querySelector('img[data-ds-media=canvas]') as HTMLImageElement | null)?.naturalWidth,
          images,
          fonts,
          fontUsed: document.fonts.check('26px "Ledger Mono"'),
          // Icons from the sprite file: copied in, and drawn (a broken reference has an empty box).
          icons: [...document.querySelectorAll('.nav use')].map((use) => ({
            copied: document.getElementById((use.getAttribute('href') ?? '').slice(1))?.localName,
            width: (use as SVGGraphicsElement).getBBox().width,
          })),
        };
      });
      expect(state).toMatchObject({
        target: 'Create invoice',
        client: 'Acme GmbH',
        currency: 'EUR',
        notes: 'Net 30, thank you!',
        reminder: true,
        secret: '',
        card: '',
        frameTotal: expect.stringContaining('4,200.00'),
        frameBox: 220,
        chart: 260,
        fontUsed: true,
      });
      expect(state.fonts).toContain('Ledger Mono loaded');
      expect(state.icons).toEqual([1, 2, 3].map(() => ({ copied: 'symbol', width: expect.any(Number) })));
      for (const icon of state.icons) expect(icon.width).toBeGreaterThan(0);
      expect(state.images.length).toBeGreaterThanOrEqual(3); // logo, avatar, chart
      for (const image of state.images) expect(image).toEqual({ src: expect.stringMatching(/^data:image\//), loaded: true });
      expect(await offline.page.evaluate(() => getComputedStyle(document.querySelector('.card')!).backgroundImage)).toMatch(/^url\("data:image\/svg\+xml/);
      // Nothing needed the network: no request left the page.
      expect(offline.blocked).toEqual([]);
      await offline.page.screenshot({ path: 'test-results/extension-snapshot/offline.png' });
    } finally {
      await offline.context.close();
    }
  });

  it('fetched only the cross-origin stylesheets, the font and the images through fetchResource', () => {
    const kinds = fetched.map((line) => line.split(' ')[0]);
    expect(fetched).toContain(`css ${app.styleOrigin}/theme.css`);
    expect(fetched).toContain(`css ${app.styleOrigin}/theme-extra.css`);
    expect(fetched).toContain(`font ${app.styleOrigin}/fonts/source-code-pro-500.woff2`);
    expect(fetched).toContain(`image ${app.url}app/files/avatar.png`);
    expect(fetched).toContain(`image ${app.url}static/icons.svg`);
    expect(fetched).not.toContain(`css ${app.url}static/app.css`); // readable: taken from the CSSOM
    // Not fetched: a font's fallback source, the image of a rule matching nothing on the page, and one
    // under a media query the window did not match (they stay URLs in the CSS).
    expect(fetched).not.toContain(`font ${app.styleOrigin}/fonts/source-code-pro-500.woff`);
    expect(fetched.filter((line) => /empty-state|sidebar-mobile/.test(line))).toEqual([]);
    expect(snapshot.html).toContain(`url("${app.styleOrigin}/img/empty-state.svg")`);
    expect(kinds.filter((k) => k === 'css')).toHaveLength(2);
    expect(snapshot.stats).toMatchObject({ fetchedStylesheets: 2, failedStylesheets: 0, frozenFrames: 1, shadowRoots: 1, sensitiveFields: 2, redactedSubtrees: 1 });
  });

  it('freezes a 10 000-element page in a few milliseconds and serialises it (timings printed, not asserted)', async () => {
    const large = await context.newPage();
    try {
      await large.goto(`${app.url}large?n=10000`);
      await large.evaluate(() => document.fonts.ready.then(() => undefined));
      await injectSnapshot(large);
      const all = await freezeTimes(large, 9, { target: 'button', scroll: 'all' });
      const tracked = await freezeTimes(large, 9, { target: 'button', scroll: 'tracker' });
      const auto = await freezeTimes(large, 9, { target: 'button', scroll: 'auto' });
      const { elements } = all;
      const once = await snapshotOnce(large, 'button');
      const runs = (times: number[]) => `median ${quantile(times, 0.5).toFixed(1)} ms (${times.map((t) => t.toFixed(1)).join(', ')})`;
      console.log(
        `10k page: ${elements} elements; freeze reading every scroll offset ${runs(all.times)}; with a scroll tracker ${runs(tracked.times)}; ` +
          `default ('auto': all the first time, then a tracker) ${runs(auto.times)}; ` +
          `serialise ${once.serializeMs.toFixed(0)} ms, ${once.snapshot.bytes} bytes`,
      );
      const times = tracked.times;
      expect(elements).toBeGreaterThanOrEqual(10_000);
      expect(once.snapshot.stats.elements).toBeGreaterThanOrEqual(10_000);
      expect(once.snapshot.html).toContain('value="note 999"');
      expect(once.snapshot.stats).toMatchObject({ fetchedStylesheets: 2, linkedStylesheets: 0 });
      // Only a sanity bound: a loaded CI machine must not fail this; a freeze of seconds would.
      expect(quantile(times, 0.5)).toBeLessThan(1_000);
    } finally {
      await large.close();
    }
  });

  it('keeps a modal dialog, an open popover, named slots, a srcdoc frame and form state, and serialises synchronously as a fallback', async () => {
    const edge = await context.newPage();
    try {
      await edge.setContent(`<!doctype html><html><head><style>
        body { font: 16px sans-serif; margin: 0; }
        dialog { border: 0; border-radius: 16px; padding: 24px; width: 360px; }
        dialog::backdrop { background: rgba(15, 23, 42, 0.5); }
        [popover] { inset: auto; top: 200px; left: 40px; margin: 0; border: 2px solid rgb(79, 70, 229); }
        card-layout::part(title) { letter-spacing: 2px; }
      </style></head><body>
        <p>Behind the dialog</p>
        <card-layout><span slot="title">Quarterly report</span><p>Body text</p></card-layout>
        <iframe id="srcdoc" style="width: 200px; height: 80px" srcdoc="<p class=x style='color: rgb(1, 2, 3)'>In a srcdoc frame</p>"></iframe>
        <form>
          <label><input type="radio" name="plan" value="a"> A</label><label><input type="radio" name="plan" value="b"> B</label>
          <select multiple name="tags"><option>one</option><option>two</option><option>three</option></select>
          <textarea name="otp" autocomplete="one-time-code"></textarea>
          <select name="exp" autocomplete="cc-exp-month"><option>01</option><option>07</option></select>
        </form>
        <div id="menu" popover>Popover menu</div>
        <dialog id="confirm"><h2>Delete invoice?</h2><button id="confirm-delete">Delete</button></dialog>
      </body></html>`);
      await edge.evaluate(() => {
        customElements.define(
          'card-layout',
          class extends HTMLElement {
            constructor() {
              super();
              this.attachShadow({ mode: 'open' }).innerHTML =
                '<style>h3 { color: rgb(200, 0, 0); margin: 0 } ::slotted(p) { color: rgb(0, 120, 0) }</style><h3 part="title"><slot name="title">Untitled</slot></h3><div class="body"><slot></slot></div>';
            }
          },
        );
        (document.querySelector('input[value=b]') as HTMLInputElement).checked = true;
        const select = document.querySelector('select') as HTMLSelectElement;
        select.options[0]!.selected = true;
        select.options[2]!.selected = true;
        (document.querySelector('textarea') as HTMLTextAreaElement).value = '123456';
        (document.querySelector('select[name=exp]') as HTMLSelectElement).selectedIndex = 1;
        (document.getElementById('menu') as HTMLElement).showPopover();
        (document.getElementById('confirm') as HTMLDialogElement).showModal();
      });
      await edge.waitForFunction(() => (document.getElementById('srcdoc') as HTMLIFrameElement).contentDocument?.querySelector('.x'));
      await injectSnapshot(edge);
      const result = await edge.evaluate(() => {
        const api = window.__demoshareSnapshot;
        const box = (el: Element | null) => {
          const r = el!.getBoundingClientRect();
          return [r.left, r.top, r.width, r.height].map(Math.round);
        };
        const live = { dialog: box(document.getElementById('confirm')), popover: box(document.getElementById('menu')) };
        const frozen = api.freezeDocument(document, { target: document.getElementById('confirm-delete') });
        // The page goes away before serialising: the fallback is synchronous and needs no fetching.
        return { live, html: frozen.fallbackHtml() };
      });
      expect(result.html).not.toContain('123456');
      const offline = await offlineSnapshotPage(browser!, sanitizeSnapshot(result.html, 'http://example.test/'), VIEWPORT);
      try {
        const shown = await offline.page.evaluate(() => {
          const box = (el: Element | null) => {
            const r = el!.getBoundingClientRect();
            return [r.left, r.top, r.width, r.height].map(Math.round);
          };
          const dialog = document.querySelector('[role=dialog]');
          const topmost = document.elementFromPoint(...(box(dialog).slice(0, 2).map((v) => v + 30) as [number, number]));
          return {
            dialog: box(dialog),
            popover: box(document.querySelector('#menu')),
            dialogOnTop: dialog?.contains(topmost) ?? false,
            backdrop: getComputedStyle(document.querySelector('[data-ds-backdrop]')!).backgroundColor,
            target: document.querySelector('[data-ds-target]')?.textContent,
            title: getComputedStyle(document.querySelector('card-layout h3')!).color,
            part: getComputedStyle(document.querySelector('card-layout h3')!).letterSpacing,
            titleText: document.querySelector('card-layout h3')?.textContent,
            slotted: getComputedStyle(document.querySelector('card-layout .body p')!).color,
            frame: getComputedStyle(document.querySelector('[data-ds-frame] .x')!).color,
            plan: (document.querySelector('input[value=b]') as HTMLInputElement).checked,
            tags: [...(document.querySelector('select') as HTMLSelectElement).selectedOptions].map((o) => o.text),
            expiry: (document.querySelector('select[name=exp]') as HTMLSelectElement).value,
          };
        });
        expect(shown).toEqual({
          ...result.live,
          dialogOnTop: true,
          backdrop: 'rgba(15, 23, 42, 0.5)',
          target: 'Delete',
          title: 'rgb(200, 0, 0)',
          part: '2px',
          titleText: 'Quarterly report',
          slotted: 'rgb(0, 120, 0)',
          frame: 'rgb(1, 2, 3)',
          plan: true,
          tags: ['one', 'three'],
          expiry: '01',
        });
        expect(offline.blocked).toEqual([]);
      } finally {
        await offline.context.close();
      }
    } finally {
      await edge.close();
    }
  });

  it('gives up on a resource the fetcher never answers for, and on one it throws for', async () => {
    const hang = await context.newPage();
    try {
      await hang.goto(`${app.url}large?n=10`);
      await injectSnapshot(hang);
      const stats = await hang.evaluate(async () => {
        const api = window.__demoshareSnapshot;
        const started = performance.now();
        const { stats } = await api.serializeFrozen(api.freezeDocument(document), {
          // The theme stylesheet is never answered; anything else throws.
          fetchResource: (url) => (url.endsWith('/theme.css') ? new Promise(() => {}) : Promise.reject(new Error('no worker'))),
          resourceTimeoutMs: 300,
        });
        return { ...stats, took: performance.now() - started };
      });
      expect(stats).toMatchObject({ failedStylesheets: 1, fetchedStylesheets: 0, linkedStylesheets: 1 });
      expect(stats.took).toBeLessThan(10_000);
    } finally {
      await hang.close();
    }
  });

  it('tells sensitive and redacted elements apart, across shadow roots, and blurs them with REDACTION_CSS', async () => {
    const check = await context.newPage();
    try {
      await check.setContent(`<!doctype html><body>
        <input id="password" type="PassWord">
        <input id="card" autocomplete="section-pay billing CC-NUMBER">
        <input id="csc" autocomplete="cc-csc">
        <input id="holder" autocomplete="cc-name">
        <textarea id="new-password" autocomplete="new-password"></textarea>
        <input id="otp" autocomplete="one-time-code">
        <select id="exp-month" autocomplete="cc-exp-month"><option>01</option><option>02</option></select>
        <input id="email" type="email" autocomplete="email">
        <input id="name" autocomplete="name">
        <div data-demoshare-blur><span id="blurred">Blurred</span><x-host id="host"></x-host></div>
        <p data-demoshare-redact id="redacted">Secret</p>
        <p id="plain">Plain</p>
      </body>`);
      await injectSnapshot(check);
      const result = await check.evaluate(() => {
        const { privacy } = window.__demoshareSnapshot;
        const host = document.getElementById('host')!;
        host.attachShadow({ mode: 'open' }).innerHTML = '<b id="inside">In a shadow root</b>';
        const style = document.createElement('style');
        style.textContent = privacy.REDACTION_CSS;
        document.head.append(style);
        const ids = ['password', 'card', 'csc', 'holder', 'new-password', 'otp', 'exp-month', 'email', 'name', 'blurred', 'redacted', 'plain'];
        const byId = (id: string) => document.getElementById(id)!;
        return {
          sensitive: ids.filter((id) => privacy.isSensitiveField(byId(id))),
          redacted: ids.filter((id) => privacy.isRedacted(byId(id))),
          inShadow: privacy.isRedacted(host.shadowRoot!.getElementById('inside')!),
          blurred: ids.filter((id) => getComputedStyle(byId(id)).filter.startsWith('blur(')),
        };
      });
      expect(result).toEqual({
        sensitive: ['password', 'card', 'csc', 'holder', 'new-password', 'otp', 'exp-month'],
        redacted: ['blurred', 'redacted'],
        inShadow: true,
        blurred: ['password', 'card', 'csc', 'holder', 'new-password', 'otp', 'exp-month', 'redacted'],
      });
    } finally {
      await check.close();
    }
  });
});

describe('snapshot CSS rewriting', () => {
  it('points a flattened frame’s html and body selectors at the divs standing in for them', () => {
    expect(frameSelector('html')).toBe(':where([data-ds-frame-html])');
    expect(frameSelector(':root, body > .x, html.dark .y, .tbody, tbody td')).toBe(
      ':where([data-ds-frame-html]), :where([data-ds-frame-body]) > .x, :where([data-ds-frame-html]).dark .y, .tbody, tbody td',
    );
  });

  it('turns shadow-root selectors into selectors of the flattened tree', () => {
    expect(shadowSelector(':host')).toBe(':where(:scope)');
    expect(shadowSelector(':host([open]:not(.x)) .a')).toBe(':where(:scope):is([open]:not(.x)) .a');
    expect(shadowSelector(':host-context(.dark) p')).toBe(':where(:scope):is(.dark, .dark *) p');
    expect(shadowSelector('::slotted(p), slot[name=a]::slotted(*)')).toBe('slot > :is(p), slot[name=a] > :is(*)');
    expect(partSelector('x-card::part(title active):hover')).toBe('x-card [part~="title"][part~="active"]:hover');
  });

  it('takes leading @imports off a fetched stylesheet and inlines them under their conditions', () => {
    const { imports, rest } = leadingImports('@charset "utf-8";\n/* base */ @import url("a.css");\n@import \'b.css\' layer(base) supports(display: grid) screen and (min-width: 40em);\n.x { color: red }');
    expect(imports).toEqual([
      { url: 'a.css', conditions: '' },
      { url: 'b.css', conditions: 'layer(base) supports(display: grid) screen and (min-width: 40em)' },
    ]);
    expect(rest.trim()).toBe('.x { color: red }');
    expect(wrapImportConditions('.y{}', 'layer(base) supports(display: grid) screen').replace(/\s+/g, ' ').trim()).toBe(
      '@layer base { @supports (display: grid) { @media screen { .y{} } } }',
    );
  });
});
