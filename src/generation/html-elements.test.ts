import { parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { extractFacts } from './html-elements';

const facts = (body: string) => extractFacts(parseDocument(`<html><head><title>T</title></head><body>${body}</body></html>`), 'https://site.example/');

describe('the classifiers on real-world markup', () => {
  it('counts a price wrapped in a span once and names plans from their first line when not in headings', () => {
    const { elements } = facts(`
      <h2>Pricing</h2>
      <div class="row">
        <div class="card"><div class="plan-name">Starter</div><div class="price"><span>$0</span></div><a class="btn" href="/s">Start</a></div>
        <div class="card"><div class="plan-name">Team</div><div class="price"><span>$12</span>/mo</div><span class="badge">Most popular</span><a class="btn" href="/t">Buy</a></div>
      </div>`);
    const pricing = elements.find((e) => e.kind === 'pricing');
    expect(pricing?.items).toEqual(['Starter at $0', 'Team at $12/mo (most popular)']);
  });

  it('never takes a table of amounts or KPI cards without a call to action for pricing', () => {
    const { elements } = facts(`
      <h2>Team</h2>
      <table><tbody>
        <tr><td>Ada</td><td>$40,000</td><td><a href="/ada">Edit</a></td></tr>
        <tr><td>Bob</td><td>$52,000</td><td><a href="/bob">Edit</a></td></tr>
      </tbody></table>
      <div class="kpis">
        <div class="kpi"><h5>Revenue</h5><p>$40,000</p></div>
        <div class="kpi"><h5>Refunds</h5><p>$1,200</p></div>
      </div>`);
    expect(elements.filter((e) => e.kind === 'pricing')).toEqual([]);
  });

  it('takes a row of statistics for no features, and a grid of named cards for features', () => {
    const { elements } = facts(`
      <h2>In numbers</h2>
      <div class="stats"><div><h3>10k+</h3><p>teams</p></div><div><h3>99.9%</h3><p>uptime</p></div><div><h3>24/7</h3><p>support</p></div></div>
      <h2>What you get</h2>
      <div class="grid"><div><h3>Fast builds</h3><p>In seconds.</p></div><div><h3>Typed APIs</h3><p>End to end.</p></div></div>`);
    const features = elements.filter((e) => e.detail === 'features');
    expect(features.map((f) => [f.text, f.items])).toEqual([['What you get', ['Fast builds', 'Typed APIs']]]);
  });
});

describe('the hero as a visitor sees it', () => {
  it('takes a site name in an h1 in the header for its logo, and a display or lead text for the headline', async () => {
    const { planSteps } = await import('./step-planner');
    const page = (body: string) => {
      const f = facts(body);
      return { url: 'https://site.example/', title: f.title, description: '', width: 1280, height: 800, elements: f.elements };
    };
    const logoFirst = page(`
      <header><h1><a href="/">Micro</a></h1><nav><a href="/docs">Docs</a><a href="/pricing">Pricing</a></nav></header>
      <section><p class="display-4">Ship faster with Micro</p><p class="lead">The toolkit for small teams.</p><a class="btn btn-primary" href="/start">Start free</a></section>
      <section><h2>Why Micro</h2><p>Because.</p></section>`);
    expect(logoFirst.elements.find((e) => e.text === 'Micro')).toMatchObject({ kind: 'link', detail: 'logo' });
    const [hero, cta] = planSteps([logoFirst]);
    expect(hero).toMatchObject({ role: 'hero', element: { text: 'Ship faster with Micro' } });
    expect(cta).toMatchObject({ role: 'cta', element: { text: 'Start free' } });

    const leadOnly = page(`
      <header><a href="/"><img src="/logo.png" alt="Acme"></a></header>
      <section class="hero"><p class="lead">Invoices that pay themselves</p><a class="btn btn-primary" href="/signup">Try it</a></section>
      <section><h2>Features</h2><p>Many.</p></section>`);
    expect(planSteps([leadOnly])[0]).toMatchObject({ role: 'hero', element: { text: 'Invoices that pay themselves' } });
  });
});

describe('what is hidden without a browser', () => {
  it('reads nothing inside closed menus, dropdowns, collapsed regions, modals or closed details', () => {
    const { elements } = facts(`
      <nav class="navbar"><div class="collapse navbar-collapse"><a href="/docs">Docs</a><a href="/blog">Blog</a></div>
        <div class="dropdown"><button aria-expanded="false">Notifications</button>
          <div class="dropdown-menu"><h1>3 new alerts</h1><a class="btn btn-primary" href="/alerts">View all alerts</a></div></div></nav>
      <div class="modal"><h2>Sign in</h2><form><input name="email"><input name="password" type="password"></form></div>
      <details><summary>More</summary><h2>Hidden answer</h2></details>
      <p class="d-none d-lg-block display-5">Shown on desktops</p>
      <span class="hidden md:flex"><a class="btn" href="/wide">Wide only</a></span>
      <h1>The real headline</h1>`);
    const texts = elements.map((e) => e.text);
    expect(texts).not.toContain('3 new alerts');
    expect(texts).not.toContain('View all alerts');
    expect(texts).not.toContain('Sign in');
    expect(texts).not.toContain('Hidden answer');
    expect(texts).toEqual(expect.arrayContaining(['Docs', 'Blog', 'Notifications', 'Shown on desktops', 'Wide only', 'The real headline']));
    expect(elements.find((e) => e.kind === 'nav')?.items).toEqual(['Docs', 'Blog']);
  });
});

describe('what the page’s own stylesheets hide', () => {
  it('follows display and visibility rules as a desktop browser would: media queries, specificity, order, importance', () => {
    const { elements } = facts(`
      <style>
        .notice-panel { display: none; }
        .tray { display: none; } .tray.is-shown { display: block; }
        .collapse:not(.show) { display: none; }
        @media (min-width: 992px) { .navbar-expand-lg .navbar-collapse { display: flex !important; } }
        @media (max-width: 767px) { .desktop-only { display: none; } }
        @media print { .screen-only { display: none; } }
        .menu:hover .sub { display: block; } .sub { display: none; }
        .ghost { visibility: hidden; }
      </style>
      <nav class="navbar navbar-expand-lg"><div class="collapse navbar-collapse"><a href="/docs">Docs</a></div>
        <div class="notice-panel"><h1>2 unread notices</h1><a class="btn btn-primary" href="/n">Open notices</a></div>
        <ul class="menu"><li><a href="/a">Products</a><ul class="sub"><li><a href="/x">Secret item</a></li></ul></li></ul></nav>
      <div class="tray is-shown"><h2>Shown tray</h2></div>
      <div class="tray"><h2>Closed tray</h2></div>
      <p class="desktop-only display-4">Desktop headline</p>
      <h2 class="screen-only">On screen</h2>
      <h2 class="ghost">Invisible heading</h2>`);
    const texts = elements.map((e) => e.text);
    expect(texts).toEqual(expect.arrayContaining(['Docs', 'Products', 'Shown tray', 'Desktop headline', 'On screen']));
    for (const gone of ['2 unread notices', 'Open notices', 'Secret item', 'Closed tray', 'Invisible heading']) expect(texts).not.toContain(gone);
    expect(elements.find((e) => e.kind === 'nav')?.items).toEqual(['Docs', 'Products']);
  });

  it('reads a row of figures as key figures, and a data table with its columns, pointing at its header row when too big', () => {
    const { elements } = facts(`
      <h1>Dashboard</h1>
      <div class="row">
        <div class="col"><div class="small-box"><div class="inner"><h3>150</h3><p>New Orders</p></div><a href="#" class="small-box-footer">More info</a></div></div>
        <div class="col"><div class="small-box"><div class="inner"><h3>53<sup>%</sup></h3><p>Bounce Rate</p></div><a href="#" class="small-box-footer">More info</a></div></div>
      </div>
      <div class="card"><div class="card-header"><h3 class="card-title">Latest Orders</h3></div>
        <div class="card-body"><table><thead><tr><th>Order ID</th><th>Item</th><th>Status</th></tr></thead>
          <tbody><tr><td>OR9842</td><td>Call of Duty</td><td>Shipped</td></tr><tr><td>OR1848</td><td>Samsung</td><td>Pending</td></tr></tbody></table></div></div>`);
    expect(elements.find((e) => e.detail === 'kpis')?.items).toEqual(['150 New Orders', '53% Bounce Rate']);
    const table = elements.find((e) => e.detail === 'table');
    expect([table?.text, table?.items]).toEqual(['Latest Orders', ['Order ID', 'Item', 'Status']]);
    expect(table?.focus?.selector).toMatch(/thead$/);
  });

  it('takes no features from a footer’s link columns or from dated posts, and keeps the footer’s links to follow', () => {
    const { elements, links } = facts(`
      <h2>From the blog</h2>
      <div class="posts"><article><h3>Release 2.0</h3><time datetime="2026-03-01">March 1, 2026</time></article><article><h3>Our roadmap</h3><p>Feb 12, 2026 · 5 min read</p></article></div>
      <footer><div class="cols"><div><h4>Product</h4><a href="/pricing">Pricing</a></div><div><h4>Company</h4><a href="/about">About</a></div></div></footer>`);
    expect(elements.filter((e) => e.detail === 'features')).toEqual([]);
    expect(elements.some((e) => e.text === 'Pricing')).toBe(false);
    expect(links.map((l) => [l.text, l.inNav])).toEqual([
      ['Pricing', false],
      ['About', false],
    ]);
  });

  it('points a navigation’s hotspot at its list of links, not at the bar with the logo and buttons', () => {
    const { elements } = facts(`
      <nav class="navbar"><a class="navbar-brand" href="/">Acme</a>
        <div id="menu"><ul class="nav"><li><a href="/features">Features</a></li><li><a href="/pricing">Pricing</a></li><li><a href="/docs">Docs</a></li></ul>
        <ul class="nav right"><li><a href="/login">Log in</a></li></ul></div></nav>`);
    const nav = elements.find((e) => e.kind === 'nav');
    expect(nav?.selector).toBe('#menu > ul:nth-of-type(1)');
    // The logo leads home: it is not one of the places the navigation lists.
    expect(nav?.items).toEqual(['Features', 'Pricing', 'Docs', 'Log in']);
  });

  it('hides cookie and consent banners', () => {
    const { elements } = facts(`<h1>Acme</h1><div id="cookie-consent"><p>We use cookies.</p><button class="btn-primary">Accept all</button></div>`);
    expect(elements.map((e) => e.text)).toEqual(['Acme']);
  });

  it('reads a product form whose options sit outside it (form attribute) and names option groups by their legend', () => {
    const { elements } = facts(`
      <h1>The Everyday Mug</h1>
      <fieldset><legend>Glaze</legend><input type="radio" name="g" value="Oat" form="buy" checked><input type="radio" name="g" value="Sea" form="buy"></fieldset>
      <label for="qty">Quantity</label><input id="qty" type="number" value="1" form="buy">
      <form id="buy" action="/cart/add"><button type="submit">Add to cart</button></form>
      <form id="other"><input name="q" aria-label="Search"></form>`);
    const buy = elements.find((e) => e.kind === 'form' && e.detail === 'Add to cart');
    expect(buy?.items).toEqual(['Glaze', 'Quantity']);
  });
});

describe('the headline is never the logo', () => {
  const heroOf = async (body: string) => {
    const { planSteps } = await import('./step-planner');
    const f = facts(body);
    const steps = planSteps([{ url: 'https://site.example/', title: f.title, description: '', width: 1280, height: 800, elements: f.elements }]);
    return { hero: steps.find((s) => s.role === 'hero')?.element.text, cta: steps.find((s) => s.role === 'cta')?.element.text, elements: f.elements };
  };
  const hero = `<section class="hero"><h1>Ship faster with Acme</h1><p>For small teams.</p><a class="btn btn-primary" href="/signup">Try it free</a></section>`;

  it('takes no site name in the top bar for the headline, however the theme writes it', async () => {
    const bars = [
      // A plain h1 beside the menu, no link.
      `<header><h1>Acme</h1><nav><a href="/a">Docs</a><a href="/b">Pricing</a></nav></header>`,
      // A div for a header, the name linked home.
      `<div class="header"><div class="container"><h1><a href="/">Acme</a></h1><ul class="nav-menu"><li><a href="/a">Docs</a></li><li><a href="/b">Pricing</a></li></ul></div></div>`,
      // Bootstrap's navbar-brand around a heading, linked to the top of the page.
      `<nav class="navbar"><a class="navbar-brand" href="#page-top"><h1>Acme</h1></a><ul class="navbar-nav"><li><a href="/a">Docs</a></li></ul></nav>`,
      // WordPress: the site title is an h1 on the home page.
      `<div id="masthead"><p class="site-description">Tools</p><h1 class="site-title"><a href="https://site.example/" rel="home">Acme</a></h1></div>`,
      // The name set in a display class inside the home link.
      `<header><a href="/"><span class="headline">Acme</span></a></header>`,
      // A logo block: an image's alt and a name.
      `<div class="logo"><h2><img src="/l.png" alt="Acme"> Acme</h2></div>`,
    ];
    for (const bar of bars) expect((await heroOf(bar + hero)).hero, bar).toBe('Ship faster with Acme');
  });

  it('keeps a hero built around the product’s name, and never offers the logo as the call to action', async () => {
    // Material Kit: the hero's block has a "brand" class and a tagline under the name.
    const brandHero = await heroOf(`<nav class="navbar"><a class="navbar-brand" href="/">Material Kit</a><ul class="navbar-nav"><li><a href="/a">Docs</a></li></ul></nav>
      <div class="page-header"><div class="brand"><h1>Material Kit.</h1><h3>A Bootstrap UI kit.</h3></div></div>`);
    expect(brandHero.hero).toBe('Material Kit.');
    // A brand that reads like a call to action ("Start Bootstrap") is still the logo.
    const startBootstrap = await heroOf(`<nav class="navbar"><a class="navbar-brand" href="#page-top">Start Bootstrap</a><ul class="navbar-nav"><li><a href="#f">Features</a></li><li><a href="#d">Download</a></li></ul></nav>
      <header><h1>Showcase your app beautifully.</h1><p>Launch it.</p></header><section><h2>Features</h2><p>Many.</p></section>`);
    expect(startBootstrap.hero).toBe('Showcase your app beautifully.');
    expect(startBootstrap.cta).not.toBe('Start Bootstrap');
    expect(startBootstrap.elements.some((e) => e.text === 'Start Bootstrap' && e.kind !== 'link')).toBe(false);
  });
});

describe('figures keep their labels', () => {
  it('names a figure among feature cards with its label, or leaves it out, and never takes a bare figure for a heading', () => {
    const { elements } = facts(`
      <h2>Why teams switch</h2>
      <div class="row">
        <div class="col"><h3>Fast builds</h3><p>In seconds.</p></div>
        <div class="col"><h3>10k+</h3><p>teams</p></div>
        <div class="col"><h3>99.9%</h3><p>Our service level agreement guarantees this every single month of the year.</p></div>
        <div class="col"><h3>Typed APIs</h3><p>End to end.</p></div>
      </div>
      <h2>In numbers</h2>
      <div class="stats"><div><h3>4.9★</h3><p>Rated by thousands of users on every app store we have ever shipped to</p></div><div><h3>24/7</h3><p>Support from real people, in four time zones, whatever the question is</p></div></div>`);
    expect(elements.find((e) => e.detail === 'features')?.items).toEqual(['Fast builds', '10k+ teams', 'Typed APIs']);
    const headings = elements.filter((e) => e.kind === 'heading').map((e) => e.text);
    expect(headings).toEqual(['Why teams switch', 'Fast builds', 'Typed APIs', 'In numbers']);
  });
});

describe('copies kept for phones', () => {
  it('reads no menu or button that responsive classes hide on a desktop screen, and those they show there', () => {
    const { elements } = facts(`
      <nav class="d-lg-none"><a href="/m1">Phone menu A</a><a href="/m2">Phone menu B</a></nav>
      <div class="md:hidden"><a class="btn" href="/open">Open menu</a></div>
      <div class="visible-xs"><h2>Bootstrap 3 phone title</h2></div>
      <nav class="d-none d-xl-flex"><a href="/a">Desktop A</a><a href="/b">Desktop B</a></nav>
      <div class="d-lg-none d-xl-block"><h2>Back on wide screens</h2></div>
      <div class="hidden lg:flex"><h2>Tailwind desktop</h2></div>`);
    const texts = elements.map((e) => e.text);
    for (const gone of ['Phone menu A', 'Open menu', 'Bootstrap 3 phone title']) expect(texts).not.toContain(gone);
    expect(texts).toEqual(expect.arrayContaining(['Desktop A', 'Back on wide screens', 'Tailwind desktop']));
    expect(elements.filter((e) => e.kind === 'nav').map((e) => e.items)).toEqual([['Desktop A', 'Desktop B']]);
  });
});

describe('calls to action styled with utility classes', () => {
  it('takes a padded, rounded link for a button, and a filled one in white for the main action', async () => {
    const { planSteps } = await import('./step-planner');
    const f = facts(`
      <nav><a href="/">Home</a><a href="/company">Company</a><a class="text-white bg-purple-700 rounded-lg px-4 lg:px-5 py-2" href="/download">Download</a></nav>
      <section><h1>Building digital products</h1><p>From idea to launch.</p>
        <a class="inline-flex px-5 py-3 border rounded-lg" href="/figma">Get Figma file</a>
        <a class="inline-flex px-5 py-3 text-white bg-indigo-600 rounded-lg" href="/github">View on GitHub</a></section>
      <section><h2>Tools</h2><p>Many.</p></section>`);
    expect(f.elements.filter((e) => e.kind === 'button').map((e) => [e.text, e.detail])).toEqual([
      ['Download', 'primary'],
      ['Get Figma file', undefined],
      ['View on GitHub', 'primary'],
    ]);
    const cta = planSteps([{ url: 'https://site.example/', title: f.title, description: '', width: 1280, height: 800, elements: f.elements }]).find((s) => s.role === 'cta');
    expect(cta?.element.text).toBe('View on GitHub');
  });
});

describe('what a reader sees of a link', () => {
  it('reads no stylesheet, title or description of an inline SVG as the text of a button', () => {
    const { elements } = facts(`
      <a class="btn" href="/figma"><svg viewBox="0 0 10 10"><title>Figma.logo</title><desc>Created using Figma</desc><style>.st0{fill:#0acf83}</style><path class="st0" d="M0 0h10v10z"/></svg>Get Figma file</a>
      <a href="https://github.com/acme"><svg><title>GitHub</title><path d="M0 0"/></svg></a>`);
    expect(elements.map((e) => e.text)).toEqual(['Get Figma file', 'GitHub']);
  });
});

describe('the layout of an application without a browser', () => {
  it('takes a page header beside a content area or a row of panels for no features grid, and a chart’s canvas or a script’s chart holder for a chart, so a dashboard tours as one', async () => {
    const { planSteps } = await import('./step-planner');
    const f = facts(`
      <aside class="sidebar"><nav><a href="/">Dashboard</a><a href="/charts">Charts</a><a href="/tables">Tables</a></nav></aside>
      <main>
        <div class="app-content-header"><h3>Dashboard</h3></div>
        <div class="app-content">
          <div class="row"><div class="col"><div class="small-box"><h3>150</h3><p>New Orders</p></div></div><div class="col"><div class="small-box"><h3>53%</h3><p>Bounce Rate</p></div></div></div>
          <div class="card"><div class="card-header"><h3 class="card-title">Earnings Overview</h3></div><div class="card-body"><div class="chart-area"><canvas id="myAreaChart"></canvas></div></div></div>
          <div class="row">
            <div class="col-md-6"><div class="card"><h3 class="card-title">Direct Chat</h3><form><input name="m" placeholder="Type Message"><button>Send</button></form></div></div>
            <div class="col-md-6"><div class="card"><h3 class="card-title">Latest Members</h3><ul><li><img src="/a.png" alt="">Alexander</li><li><img src="/b.png" alt="">Sarah</li></ul></div></div>
          </div>
          <div class="card"><h3 class="card-title">Sales Value</h3><div id="revenue-chart"></div></div>
        </div>
      </main>`);
    expect(f.elements.filter((e) => e.detail === 'features')).toEqual([]);
    // Panels with a form or a list of people are a dashboard's widgets, not features.
    expect(f.elements.filter((e) => e.detail === 'chart').map((e) => e.text)).toEqual(['Earnings Overview', 'Sales Value']);
    const roles = planSteps([{ url: 'https://site.example/', title: f.title, description: '', width: 1280, height: 800, elements: f.elements }]).map((s) => s.role);
    expect(roles).toEqual(['hero', 'nav', 'kpis', 'chart']);
  });
});
