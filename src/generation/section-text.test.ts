import { describe, expect, it } from 'vitest';
import { extractFacts } from './html-elements';
import { parseHtml } from './html-parse';
import { readSections, tidyPrice } from './section-text';

// A page opens on a headline: the sections below it are read as a page's, not as cards of one grid.
const read = (body: string) => {
  const doc = parseHtml(`<!doctype html><html><head><title>T</title></head><body><main><section><h1>Hi</h1><p>There.</p></section>${body}</main></body></html>`);
  return readSections(doc, extractFacts(doc, 'https://site.example/')).elements;
};

const card = (name: string, price: string, extra = '') =>
  `<div class="col"><div class="card"><div class="card-header"><div class="fs-4">${name}</div>${extra}</div><div class="card-body">${price}<ul><li>2 inboxes</li></ul><a class="btn" href="/signup">Start free trial</a></div></div></div>`;

describe('reading a page’s sections', () => {
  it('names every plan, keeps a price split across spans whole, and never reads the unit as a name', () => {
    const split = (n: string) => `<div class="price"><span>$</span><span>${n}</span><span>/ mo.</span></div>`;
    const elements = read(
      `<section><h2>Pricing</h2><div class="row" id="plans">${card('Starter', split('29'))}${card('<i class="bi bi-star"></i> Pro', split('79'), '<span class="badge">Most popular</span>')}${card(
        'Enterprise',
        '<div class="price">Custom</div>',
      )}</div></section>`,
    );
    expect(elements.find((e) => e.kind === 'pricing')?.items).toEqual(['Starter at $29/mo', 'Pro at $79/mo (most popular)', 'Enterprise on request']);
  });

  it('takes a badge out of the plan’s heading', () => {
    const plan = (name: string, price: string) => `<div><h3>${name}</h3><p><span>${price}</span><span>/month</span></p><a href="/buy">Buy plan</a></div>`;
    const elements = read(`<section><div id="tiers">${plan('Hobby', '$0')}${plan('Creator <span class="pill">Most popular</span>', '$15')}</div></section>`);
    expect(elements.find((e) => e.kind === 'pricing')?.items).toEqual(['Hobby at $0/month', 'Creator at $15/month (most popular)']);
  });

  it('tells a team (names with roles) from features', () => {
    const person = (name: string, role: string) => `<div class="col"><img src="/p.svg" alt=""><h5>${name}</h5><p class="small">${role}</p></div>`;
    const elements = read(
      `<section><h2>Meet the team</h2><div class="row">${person('Ada Lindqvist', 'Co-founder & CEO')}${person('Tomás Reyes', 'Lead Engineer')}</div></section>` +
        `<section><h2>Features</h2><div class="row"><div><h3>Shared Inbox</h3><p>One queue.</p></div><div><h3>SLA Timers</h3><p>Targets per inbox.</p></div></div></section>`,
    );
    expect(elements.filter((e) => e.items).map((e) => [e.text, e.detail])).toEqual([
      ['Meet the team', 'team'],
      ['Features', 'features'],
    ]);
  });

  it('gathers <details> questions into one FAQ, and drops a stock accordion with its headings and buttons', () => {
    const item = (q: string) =>
      `<div class="accordion-item"><h2 class="accordion-header"><button class="accordion-button" type="button">${q}</button></h2><div class="accordion-collapse collapse"><div class="accordion-body">Body.</div></div></div>`;
    const elements = read(
      `<section><h2>Billing questions</h2><details><summary>Can I change plans later?</summary><p>Yes.</p></details><details><summary>Do you charge for light agents?</summary><p>No.</p></details></section>` +
        `<section><h2>Our story</h2><div class="accordion" id="stock">${item('Accordion Item #1')}${item('Accordion Item #2')}</div></section>`,
    );
    const faq = elements.find((e) => e.detail === 'faq');
    expect(faq).toMatchObject({ text: 'Billing questions', items: ['Can I change plans later?', 'Do you charge for light agents?'] });
    expect(JSON.stringify(elements)).not.toContain('Accordion Item');
  });

  it('tidies prices as a marketer writes them', () => {
    expect(tidyPrice('$ 29 / mo.')).toBe('$29/mo');
    expect(tidyPrice('$0 /month per editor')).toBe('$0/month per editor');
    expect(tidyPrice('€1.650 / yr.')).toBe('€1.650/yr');
  });
});
