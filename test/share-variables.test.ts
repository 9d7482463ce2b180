import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillText } from '../player/src/variables';
import { fillVariables } from '../src/viewing/viewer-variables';
import { createShare, demoWithSteps, playView, viewerClient } from './helpers/shares';
import { bearer, createTestApp, type TestApp } from './helpers/test-app';
import { XSS_PAYLOADS } from './helpers/xss-payloads';


describe('share link variables (personalisation)', () => {
  let t: TestApp;
  let key: string;
  let demoId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const admin = await t.signUp();
    key = await t.apiKey('all', admin);
    demoId = await demoWithSteps(t, key, 2, false);
    // Variables in the demo's title and first step's text: what unfurls and the page title are made of.
    const call = (method: string, url: string, payload?: object) =>
      t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
    const demo = (await call('GET', `/v1/demos/${demoId}`)).json().data;
    expect((await call('PATCH', `/v1/demos/${demoId}`, { title: 'Invoicing for {{company|your team}}' })).statusCode).toBe(200);
    const first = demo.steps[0].id as string;
    const step = await call('PATCH', `/v1/demos/${demoId}/steps/${first}`, { description: 'Hi {{first_name|there}}, meet {{product}}.' });
    expect(step.statusCode, step.body).toBe(200);
    const published = await call('PATCH', `/v1/demos/${demoId}`, { status: 'published' });
    expect(published.statusCode, published.body).toBe(200);
  });
  afterAll(() => t?.close());

  const call = (method: string, url: string, payload?: object) =>
    t.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });

  it('stores a link’s variables and returns them on create, get, list and update', async () => {
    const made = await call('POST', `/v1/demos/${demoId}/shares`, {
      name: 'Acme: Dana',
      variables: { company: 'Acme', first_name: 'Dana' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const share = made.json().data;
    expect(share.variables).toEqual({ company: 'Acme', first_name: 'Dana' });
    expect((await call('GET', `/v1/shares/${share.id}`)).json().data.variables).toEqual({ company: 'Acme', first_name: 'Dana' });
    const listed = (await call('GET', `/v1/demos/${demoId}/shares`)).json().data.find((s: { id: string }) => s.id === share.id);
    expect(listed.variables).toEqual({ company: 'Acme', first_name: 'Dana' });

    // PATCH replaces the whole set; leaving it out keeps it; {} removes every value.
    const replaced = await call('PATCH', `/v1/shares/${share.id}`, { variables: { company: 'Acme Corp' } });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().data.variables).toEqual({ company: 'Acme Corp' });
    expect((await call('PATCH', `/v1/shares/${share.id}`, { name: 'Acme' })).json().data.variables).toEqual({ company: 'Acme Corp' });
    expect((await call('PATCH', `/v1/shares/${share.id}`, { variables: {} })).json().data.variables).toEqual({});
  });

  it('gives a link without variables {}', async () => {
    const res = await call('POST', `/v1/demos/${demoId}/shares`, { name: 'Plain' });
    expect(res.json().data.variables).toEqual({});
  });

  const tooMany = Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`v${i}`, 'x']));
  it.each([
    [{ 'First-Name': 'Dana' }, 'variables.First-Name', 'must be a variable name'],
    [{ '1st': 'Dana' }, 'variables.1st', 'must be a variable name'],
    [{ ['a'.repeat(41)]: 'x' }, `variables.${'a'.repeat(41)}`, 'must be a variable name'],
    [{ company: 'x'.repeat(201) }, 'variables.company', '200'],
    [{ company: 42 }, 'variables.company', 'string'],
    [{ company: null }, 'variables.company', 'string'],
    [{ company: 'a\u0000b' }, 'variables.company', 'NUL'],
    [tooMany, 'variables', 'at most 30'],
    [['Acme'], 'variables', ''],
    ['company=Acme', 'variables', ''],
  ])('refuses variables %j with a 400 naming %s, and changes nothing', async (variables, field, words) => {
    const before = (await call('GET', `/v1/demos/${demoId}/shares`)).json().meta.total;
    const res = await call('POST', `/v1/demos/${demoId}/shares`, { name: 'bad', variables });
    expect(res.statusCode, res.body).toBe(400);
    const error = res.json().error;
    expect(error.code).toBe('invalid_request');
    const detail = error.details.find((d: { field: string }) => d.field === field);
    expect(detail, JSON.stringify(error.details)).toBeDefined();
    expect(detail.message).toContain(words);
    expect((await call('GET', `/v1/demos/${demoId}/shares`)).json().meta.total).toBe(before);

    const share = await createShare(t, key, demoId, { variables: { company: 'Kept' } });
    const patched = await call('PATCH', `/v1/shares/${share.id}`, { variables });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect((await call('GET', `/v1/shares/${share.id}`)).json().data.variables).toEqual({ company: 'Kept' });
  });

  it('accepts 30 variables with 40-character names and 200-character values', async () => {
    const variables = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`v${String(i).padStart(2, '0')}${'x'.repeat(37)}`, 'y'.repeat(200)]),
    );
    const res = await call('POST', `/v1/demos/${demoId}/shares`, { variables });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.variables).toEqual(variables);
  });

  it('makes one personalised link per account of a list, each named and with its own values', async () => {
    const accounts = [
      { company: 'Acme', first_name: 'Dana', owner: 'dana@acme.com' },
      { company: 'Globex', first_name: 'Hank', owner: 'hank@globex.com' },
      { company: 'Initech', first_name: 'Peter', owner: 'peter@initech.com' },
    ];
    const links = new Map<string, { id: string; url: string }>();
    // The loop docs/personalisation.md shows with the SDK: one POST per account.
    for (const account of accounts) {
      const res = await call('POST', `/v1/demos/${demoId}/shares`, {
        name: `${account.company}: ${account.first_name}`,
        variables: { company: account.company, first_name: account.first_name },
      });
      expect(res.statusCode, res.body).toBe(201);
      links.set(account.company, res.json().data);
    }
    const listed = (await call('GET', `/v1/demos/${demoId}/shares`)).json().data as Array<{
      id: string;
      name: string;
      variables: Record<string, string>;
    }>;
    for (const account of accounts) {
      const link = listed.find((s) => s.id === links.get(account.company)!.id)!;
      expect(link).toMatchObject({
        name: `${account.company}: ${account.first_name}`,
        variables: { company: account.company, first_name: account.first_name },
      });
    }
    // Each link's page says its own account's name in its title and unfurls.
    const page = await t.app.inject({ method: 'GET', url: new URL(links.get('Globex')!.url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<meta property="og:title" content="Invoicing for Globex">');
    expect(page.body).toContain('<meta property="og:description" content="Hi Hank, meet .">');
  });

  it('gives the player the link’s variables in the viewer payload, {} without, and new ones after a change', async () => {
    const share = await createShare(t, key, demoId, { variables: { company: 'Acme', first_name: 'Dana' } });
    const viewer = viewerClient(t, share.token);
    expect((await viewer.call('GET', '')).statusCode).toBe(200);
    const payload = await viewer.call('GET', '/demo');
    expect(payload.statusCode, payload.body).toBe(200);
    expect(payload.json().data.variables).toEqual({ company: 'Acme', first_name: 'Dana' });
    // The step text travels with its variables unfilled: the player fills them with URL and form values too.
    expect(payload.json().data.steps[0].description).toBe('Hi {{first_name|there}}, meet {{product}}.');

    const evil = '</script><script>alert(1)</script>';
    expect((await call('PATCH', `/v1/shares/${share.id}`, { variables: { company: evil } })).statusCode).toBe(200);
    const changed = await viewer.call('GET', '/demo');
    expect(changed.json().data.variables).toEqual({ company: evil });

    const plain = await createShare(t, key, demoId, {});
    const other = viewerClient(t, plain.token, '203.0.113.44');
    await other.call('GET', '');
    expect((await other.call('GET', '/demo')).json().data.variables).toEqual({});
  });

  it('fills the demo’s title in the link state the gate shows', async () => {
    const named = await createShare(t, key, demoId, { require_identification: true, variables: { company: 'Hooli' } });
    const state = await viewerClient(t, named.token, '203.0.113.61').call('GET', '');
    expect(state.statusCode, state.body).toBe(200);
    expect(state.json().data).toMatchObject({ gate: 'identification', title: 'Invoicing for Hooli' });
    const plain = await createShare(t, key, demoId, { require_identification: true });
    const fallback = await viewerClient(t, plain.token, '203.0.113.62').call('GET', '');
    expect(fallback.json().data.title).toBe('Invoicing for your team');
  });

  it('names the link and its account on each listed view', async () => {
    const initech = await createShare(t, key, demoId, { name: 'Initech: Peter', variables: { company: 'Initech', first_name: 'Peter' } });
    const plain = await createShare(t, key, demoId, { name: 'Newsletter' });
    await playView(t, initech.token, { email: 'peter@initech.com', reached: 2 });
    await playView(t, plain.token, { reached: 1, ip: '203.0.113.31' });
    const res = await call('GET', `/v1/demos/${demoId}/views`);
    expect(res.statusCode, res.body).toBe(200);
    const views = res.json().data as Array<{ share_id: string; link: unknown }>;
    expect(views.find((v) => v.share_id === initech.id)?.link).toEqual({
      name: 'Initech: Peter',
      variables: { company: 'Initech', first_name: 'Peter' },
    });
    expect(views.find((v) => v.share_id === plain.id)?.link).toEqual({ name: 'Newsletter', variables: {} });
  });

  it('fills the page title and unfurls with fallbacks on a link without variables: no raw {{…}}', async () => {
    const share = await createShare(t, key, demoId, {});
    const page = await t.app.inject({ method: 'GET', url: `/s/${share.token}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Invoicing for your team · ');
    expect(page.body).toContain('<meta property="og:title" content="Invoicing for your team">');
    expect(page.body).toContain('<meta name="twitter:title" content="Invoicing for your team">');
    expect(page.body).toContain('<meta property="og:description" content="Hi there, meet .">');
    expect(page.body).not.toContain('{{');
    // URL parameters do not reach the unfurl: anyone could add them to a link.
    const withParams = await t.app.inject({ method: 'GET', url: `/s/${share.token}?company=Evil%20Corp` });
    expect(withParams.body).not.toContain('Evil Corp');
    expect(withParams.body).toContain('content="Invoicing for your team"');
  });

  it('fills the owner’s own preview title too', async () => {
    const share = await createShare(t, key, demoId, {
      preview_title: '{{company|Your team}} × invoicing',
      variables: { company: 'Umbrella' },
    });
    const page = await t.app.inject({ method: 'GET', url: `/s/${share.token}` });
    expect(page.body).toContain('<meta property="og:title" content="Umbrella × invoicing">');
    const embed = await t.app.inject({ method: 'GET', url: `/embed/${share.token}` });
    expect(embed.body).toContain('<title>Umbrella × invoicing · ');
  });

  describe.each(XSS_PAYLOADS)('with the value %s', (payload) => {
    it('stores it as given, returns it as JSON text, and escapes it in the page', async () => {
      const res = await call('POST', `/v1/demos/${demoId}/shares`, { name: payload, variables: { company: payload, first_name: payload } });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      const share = res.json().data;
      expect(share.variables).toEqual({ company: payload, first_name: payload });
      expect((await call('GET', `/v1/shares/${share.id}`)).json().data.variables.company).toBe(payload);

      const page = await t.app.inject({ method: 'GET', url: new URL(share.url).pathname });
      expect(page.statusCode).toBe(200);
      const head = page.body.slice(0, page.body.indexOf('</head>'));
      // The value is in the page only escaped: no tag, no attribute break-out, no second script.
      expect(head).not.toContain(payload.includes('<') ? payload : '\u0000');
      expect(head.match(/<script/g)?.length).toBe(2); // the JSON config block and the player bundle
      expect(head).not.toMatch(/<img|<svg/); // the words may be there, as text
      const escaped = payload.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
      expect(head).toContain(`<meta property="og:title" content="Invoicing for ${escaped}">`);
      expect(head).toContain(`<title>Invoicing for ${escaped} · `);
    });
  });

  it('keeps identification and lead-form values with XSS payloads as given, as JSON text', async () => {
    // A demo with a lead form asking for the company: what fills {{company}} once the viewer answers.
    const formDemo = await demoWithSteps(t, key, 1, false);
    const form = await call('POST', `/v1/demos/${formDemo}/steps`, {
      kind: 'form',
      title: 'About you',
      content: {
        buttons: [{ id: 'send', label: 'Send', action: { type: 'submit' } }],
        form: { fields: [{ name: 'company', label: 'Company', type: 'text' }], submit_label: 'Send' },
      },
    });
    expect(form.statusCode, form.body).toBe(201);
    const published = await call('PATCH', `/v1/demos/${formDemo}`, { status: 'published' });
    expect(published.statusCode, published.body).toBe(200);
    const share = await createShare(t, key, formDemo, { require_identification: true });
    for (const [i, payload] of XSS_PAYLOADS.entries()) {
      const viewer = viewerClient(t, share.token, `203.0.113.${80 + i}`);
      await viewer.call('GET', '');
      const identified = await viewer.call('POST', '/identify', { name: payload, email: `v${i}@example.com` });
      expect(identified.statusCode, identified.body).toBe(200);
      const started = await viewer.call('POST', '/events', { events: [{ id: randomUUID(), type: 'view_started' }] });
      expect(started.statusCode, started.body).toBe(202);
      const lead = await viewer.call('POST', '/leads', { id: randomUUID(), step_number: 2, values: { company: payload } });
      expect(lead.statusCode, lead.body).toBe(201);
    }
    const leads = await call('GET', `/v1/demos/${formDemo}/leads`);
    expect(leads.statusCode, leads.body).toBe(200);
    expect(leads.headers['content-type']).toMatch(/^application\/json/);
    const companies = (leads.json().data as Array<{ values: Record<string, unknown> }>).map((l) => l.values.company);
    expect(companies.sort()).toEqual([...XSS_PAYLOADS].sort());
    const views = (await call('GET', `/v1/demos/${formDemo}/views`)).json().data as Array<{ viewer: { name: string } }>;
    expect(views.map((v) => v.viewer.name).sort()).toEqual([...XSS_PAYLOADS].sort());
  });

  it('fills the same way on the server and in the player', () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['Hi {{first_name|there}}!', {}],
      ['Hi {{first_name|there}}!', { first_name: 'Dana' }],
      ['{{ company | your team }} and {{x}}', { x: '' }],
      ['{{constructor|c}} {{Company}} {{a|b|c}} {{a|{b}}}', {}],
      ['{{company}}', { company: '$& {{first_name}}' }],
    ];
    for (const [text, vars] of cases) expect(fillVariables(text, vars)).toBe(fillText(text, vars));
  });
});
