import { mkdirSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, overflowing, signedInPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';
import { demoWithSteps } from '../helpers/shares';
import { bearer, type TestSession, uniqueEmail } from '../helpers/test-app';

// The author's side of an interactive demo (issue 29): steps of every kind, buttons and their actions,
// chapters, a lead form, rich text, variables, the story's problems, and undo of each kind of change.

const SHOTS = 'test-results/screenshots';
const browser: Browser | null = await launchBrowser();

type Action = { type: string; target: string | number | null };
type StepRead = {
  id: string;
  number: number;
  title: string;
  description: string;
  kind: string;
  chapter_id: string | null;
  description_html: string | null;
  content: {
    buttons: { id: string; label: string; style: string; cta?: string; description?: string; action: Action }[];
    form?: { fields: { name: string; type: string; label: string; required: boolean; options?: string[]; param?: string; placeholder?: string }[]; submit_label: string; gate: boolean; skippable: boolean };
  };
};
type DemoRead = {
  steps: StepRead[];
  hotspots: { id: string; step_id: string; tooltip: string; tooltip_html: string | null; action: Action }[];
  chapters: { id: string; title: string; step_numbers: number[] }[];
  story_problems: { code: string; message: string; step_number: number | null }[];
};

describe.skipIf(!browser)('building a story in the editor (Chromium)', () => {
  let server: TestServer;
  let editor: TestSession;
  let key: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    server = await startTestServer();
    mkdirSync(SHOTS, { recursive: true });
    editor = await server.signUp(uniqueEmail('ada'));
    key = await server.apiKey('all', editor);
  });
  afterAll(async () => {
    for (const c of contexts) await c.close();
    await browser?.close();
    await server?.close();
  });

  const api = (method: string, url: string, payload?: object) =>
    server.app.inject({ method: method as 'GET', url, headers: bearer(key), ...(payload ? { payload } : {}) });
  const read = async (id: string) => (await api('GET', `/v1/demos/${id}`)).json().data as DemoRead;

  async function until<T>(get: () => Promise<T>, ok: (value: T) => boolean, what = 'condition'): Promise<T> {
    let value: T | undefined;
    for (let i = 0; i < 100; i++) {
      value = await get();
      if (ok(value)) return value;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${what} never held: ${JSON.stringify(value)}`);
  }

  async function open(path: string, viewport = { width: 1280, height: 900 }): Promise<Page> {
    const opened = await signedInPage(browser!, server.url, editor, viewport);
    contexts.push(opened.context);
    const page = opened.page;
    await page.goto(`${server.url}${path}`);
    await page.getByRole('textbox', { name: 'Demo title' }).waitFor();
    return page;
  }

  const panel = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
  const selectStep = (page: Page, n: number) => page.locator('.step-select').nth(n - 1).click();
  const addStep = async (page: Page, kind: string) => {
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByRole('menuitem', { name: kind, exact: true }).click();
  };
  /** Types into a field and leaves it (fields save when left). */
  const type = async (field: Locator, text: string) => {
    await field.fill(text);
    await field.press('Tab');
  };

  it('builds a cover, a chapter menu over two chapters, a form and an end screen with calls to action, and undoes each kind of change', async () => {
    const id = await demoWithSteps(server, key, 2, false);
    const page = await open(`/demos/${id}`);

    // A cover goes first, whatever is selected.
    await addStep(page, 'Cover');
    let demo = await until(() => read(id), (d) => d.steps[0]?.kind === 'cover', 'a cover first');
    await page.getByRole('img', { name: /Preview of step 1, Cover/ }).waitFor();
    const coverButtons = panel(page, 'Buttons');
    await type(coverButtons.getByLabel('Label (button 1)'), 'Take the tour');
    demo = await until(() => read(id), (d) => d.steps[0]!.content.buttons[0]?.label === 'Take the tour', 'cover button label');
    expect(demo.steps[0]!.content.buttons[0]!.action).toEqual({ type: 'next', target: null });
    await page.screenshot({ path: `${SHOTS}/editor-story-cover.png` });

    // A chapter menu after the cover (the selected step).
    await addStep(page, 'Chapter menu');
    demo = await until(() => read(id), (d) => d.steps[1]?.kind === 'chapter_menu', 'a chapter menu second');
    await page.getByRole('img', { name: /Preview of step 2, Chapter menu/ }).waitFor();

    // A form after the last page (step 4), with a list of choices, a consent box and a hidden UTM field.
    await selectStep(page, 4);
    await addStep(page, 'Form');
    demo = await until(() => read(id), (d) => d.steps[4]?.kind === 'form', 'a form fifth');
    const form = panel(page, 'Form');
    for (const kind of ['Choice (list)', 'Checkbox (consent)', 'Hidden (from the link)']) {
      await form.getByLabel('New field').selectOption({ label: kind });
      await form.getByRole('button', { name: 'Add field' }).click();
      await until(() => read(id), (d) => (d.steps[4]!.content.form?.fields.length ?? 0) >= 3, 'a new field');
    }
    demo = await until(() => read(id), (d) => d.steps[4]!.content.form?.fields.length === 5, 'five fields');
    await type(form.getByLabel('Choices, one a line (field 3)'), 'Just me\nA team\nA company');
    await type(form.getByLabel('Label (field 3)'), 'Who is it for?');
    await form.getByLabel('Required (field 3)').check();
    await type(form.getByLabel('Consent text (field 4)'), 'I agree that {{company|my company}} may be contacted.');
    await type(form.getByLabel('URL parameter (field 5)'), 'utm_campaign');
    await type(form.getByLabel('Placeholder (optional) (field 2)'), 'you@company.com');
    await type(form.getByLabel('Submit button'), 'Show me the rest');
    await form.getByLabel('Use as the identification gate').check();
    // A bad field name is said at once and not sent.
    await type(form.getByLabel('Name (field 1)'), '1st name');
    await form.getByText('A lowercase letter first').waitFor();
    demo = await until(
      () => read(id),
      (d) => d.steps[4]!.content.form?.gate === true && d.steps[4]!.content.form.submit_label === 'Show me the rest',
      'the form saved',
    );
    const saved = demo.steps[4]!.content.form!;
    expect(saved.fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ['name', 'text', true],
      ['email', 'email', true],
      ['team_size', 'select', true],
      ['consent', 'checkbox', true],
      ['utm_source', 'hidden', false],
    ]);
    expect(saved.fields[2]).toMatchObject({ label: 'Who is it for?', options: ['Just me', 'A team', 'A company'] });
    expect(saved.fields[3]!.label).toBe('I agree that {{company|my company}} may be contacted.');
    expect(saved.fields[4]!.param).toBe('utm_campaign');
    expect(saved.fields[1]!.placeholder).toBe('you@company.com');
    expect(saved.skippable).toBe(false);
    // The preview shows the fallback of a variable, as a viewer without values sees it.
    await page.getByRole('img', { name: /Preview of step 5, Form/ }).getByText('I agree that my company may be contacted.').waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-story-form.png` });

    // An end screen goes last, with two calls to action to start with.
    await addStep(page, 'End screen');
    demo = await until(() => read(id), (d) => d.steps[5]?.kind === 'end', 'an end screen last');
    const ctas = panel(page, 'Calls to action');
    await type(ctas.getByLabel('Label (button 1)'), 'Book a meeting with {{first_name|us}}');
    await ctas.getByLabel('Counts as (button 1)').selectOption({ label: 'Book a meeting' });
    await type(ctas.getByLabel('Address (button 1)'), 'not an address');
    await ctas.getByText('Type a web address starting with https://').waitFor();
    await type(ctas.getByLabel('Address (button 1)'), 'https://acme.example/meet');
    await ctas.getByLabel('On click (button 2)').selectOption({ label: 'Play another demo' });
    await type(ctas.getByLabel('Share link of the demo (button 2)'), 'https://demos.acme.example/s/reporting');
    await type(ctas.getByLabel('Label (button 2)'), 'See reporting');
    await ctas.getByRole('button', { name: 'Add button' }).click();
    await ctas.getByLabel('On click (button 3)').selectOption({ label: 'Restart the demo' });
    await ctas.getByRole('button', { name: 'Move button 3 up' }).click();
    demo = await until(
      () => read(id),
      (d) => d.steps[5]!.content.buttons.map((b) => b.action.type).join() === 'url,restart,demo',
      'three calls to action',
    );
    expect(demo.steps[5]!.content.buttons[0]).toMatchObject({
      label: 'Book a meeting with {{first_name|us}}',
      cta: 'book_meeting',
      action: { type: 'url', target: 'https://acme.example/meet' },
    });
    expect(demo.steps[5]!.content.buttons[2]).toMatchObject({ label: 'See reporting', action: { type: 'demo', target: 'https://demos.acme.example/s/reporting' } });
    await page.getByRole('img', { name: /Preview of step 6/ }).getByText('Book a meeting with us').waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-story-end.png` });

    // A hotspot of step 3 jumps to the end screen; its tooltip in bold (rich text).
    await selectStep(page, 3);
    await page.locator('[data-hotspot-id]').first().click();
    const hotspot = panel(page, 'Hotspot');
    await hotspot.getByLabel('On click').selectOption({ label: 'Go to a step' });
    await hotspot.getByLabel('Step', { exact: true }).selectOption({ label: '6. Ready to try it?' });
    const tooltip = hotspot.getByRole('textbox', { name: 'Tooltip' });
    await tooltip.click();
    await page.keyboard.type('Skip to the ');
    await hotspot.getByRole('button', { name: 'Bold (Tooltip)' }).click();
    await page.keyboard.type('offer');
    await hotspot.getByLabel('Label').click();
    demo = await until(() => read(id), (d) => !!d.hotspots.find((h) => h.step_id === d.steps[2]!.id)?.tooltip_html, 'rich tooltip');
    const spot = demo.hotspots.find((h) => h.step_id === demo.steps[2]!.id)!;
    expect(spot.action).toEqual({ type: 'goto', target: 6 });
    expect(spot.tooltip_html).toMatch(/Skip to the <(b|strong)>offer<\/(b|strong)>/);
    expect(spot.tooltip).toBe('Skip to the offer');

    // Undo takes back the tooltip, then the action; redo makes them again.
    await page.getByRole('button', { name: 'Undo' }).click();
    await until(() => read(id), (d) => d.hotspots.find((h) => h.id === spot.id)!.tooltip_html === null, 'tooltip undone');
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('button', { name: 'Undo' }).click();
    await until(() => read(id), (d) => d.hotspots.find((h) => h.id === spot.id)!.action.type === 'next', 'action undone');
    await page.getByRole('button', { name: 'Redo' }).click();
    await page.getByRole('button', { name: 'Redo' }).click();
    await page.getByRole('button', { name: 'Redo' }).click();
    demo = await until(() => read(id), (d) => !!d.hotspots.find((h) => h.id === spot.id)!.tooltip_html, 'tooltip redone');
    expect(demo.hotspots.find((h) => h.id === spot.id)!.action).toEqual({ type: 'goto', target: 6 });

    // Two chapters; the pages go into them (the step panel's Chapter), the list groups them under headings.
    const chapters = panel(page, 'Chapters');
    for (const title of ['Invoicing', 'Reporting']) {
      await chapters.getByRole('textbox', { name: 'New chapter title' }).fill(title);
      await chapters.getByRole('button', { name: 'Add chapter' }).click();
      await until(() => read(id), (d) => d.chapters.some((c) => c.title === title), `chapter ${title}`);
    }
    demo = await read(id);
    const [invoicing, reporting] = demo.chapters;
    await selectStep(page, 3);
    await panel(page, 'Step').getByLabel('Chapter').selectOption({ label: 'Invoicing' });
    await selectStep(page, 4);
    await panel(page, 'Step').getByLabel('Chapter').selectOption({ label: 'Reporting' });
    demo = await until(() => read(id), (d) => d.steps[3]!.chapter_id === reporting!.id, 'step 4 in Reporting');
    expect(demo.steps[2]!.chapter_id).toBe(invoicing!.id);
    await page.locator('.step-chapter-heading', { hasText: 'Reporting' }).waitFor();
    // Undo takes the step out of its chapter again; redo puts it back.
    await page.getByRole('button', { name: 'Undo' }).click();
    await until(() => read(id), (d) => d.steps[3]!.chapter_id === null, 'assignment undone');
    await page.getByRole('button', { name: 'Redo' }).click();
    await until(() => read(id), (d) => d.steps[3]!.chapter_id === reporting!.id, 'assignment redone');
    // A chapter renamed.
    await type(chapters.getByLabel('Chapter 2'), 'Reports');
    await until(() => read(id), (d) => d.chapters[1]!.title === 'Reports', 'chapter renamed');

    // The chapter menu: one button per chapter.
    await selectStep(page, 2);
    await panel(page, 'Chapter buttons').getByRole('button', { name: 'One per chapter' }).click();
    demo = await until(() => read(id), (d) => d.steps[1]!.content.buttons.length === 2, 'menu buttons');
    expect(demo.steps[1]!.content.buttons.map((b) => [b.label, b.action.type, b.action.target])).toEqual([
      ['Invoicing', 'chapter', invoicing!.id],
      ['Reports', 'chapter', reporting!.id],
    ]);
    await page.getByRole('img', { name: /Preview of step 2/ }).getByText('Reports').waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-story-menu.png` });

    // The cover's text in rich text (a bulleted list, a link) and a variable in its button, from the menus.
    await selectStep(page, 1);
    const stepPanel = panel(page, 'Step');
    const text = stepPanel.getByRole('textbox', { name: 'Step description' });
    await text.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Invoices in a minute');
    await stepPanel.getByRole('button', { name: 'Bulleted list (Step description)' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Reports your team reads');
    await page.keyboard.press('Shift+Home');
    await stepPanel.getByRole('button', { name: 'Link (Step description)' }).click();
    await stepPanel.getByRole('textbox', { name: 'Link address (Step description)' }).fill('https://acme.example/reports');
    await stepPanel.getByRole('button', { name: 'Add link' }).click();
    demo = await until(() => read(id), (d) => (d.steps[0]!.description_html ?? '').includes('href'), 'rich cover text');
    expect(demo.steps[0]!.description_html).toMatch(/^<ul><li>Invoices in a minute<\/li><li><a href="https:\/\/acme.example\/reports"[^>]*>Reports your team reads<\/a><\/li><\/ul>$/);
    expect(demo.steps[0]!.description).toContain('Invoices in a minute');
    const cover = page.getByRole('img', { name: /Preview of step 1/ });
    await cover.getByRole('link', { name: 'Reports your team reads' }).waitFor();
    const label = panel(page, 'Buttons').getByLabel('Label (button 1)');
    await label.click();
    await page.keyboard.press('End');
    await page.keyboard.type(', ');
    await panel(page, 'Buttons').getByRole('button', { name: 'Insert variable' }).first().click();
    await page.getByRole('menuitem', { name: /Another name/ }).click();
    await page.getByLabel('Name', { exact: true }).fill('first_name');
    await page.getByLabel('Fallback').fill('friend');
    await page.getByRole('button', { name: 'Insert', exact: true }).click();
    demo = await until(() => read(id), (d) => d.steps[0]!.content.buttons[0]!.label === 'Take the tour, {{first_name|friend}}', 'variable inserted');
    await cover.getByText('Take the tour, friend').waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-story-rich-cover.png` });
    // Undo takes back the variable, then the rich text.
    await page.getByRole('button', { name: 'Undo' }).click();
    await until(() => read(id), (d) => d.steps[0]!.content.buttons[0]!.label === 'Take the tour', 'variable undone');

    // The story's problems are listed with a way to their step, and publishing is refused naming them.
    demo = await read(id);
    expect(demo.story_problems.length).toBeGreaterThan(0);
    const problems = panel(page, 'Story problems');
    for (const p of demo.story_problems) await problems.getByText(p.message).waitFor();
    const first = demo.story_problems.find((p) => p.step_number !== null)!;
    await problems.getByRole('button', { name: `Show step ${first.step_number}` }).first().click();
    await panel(page, 'Step').getByRole('heading', { name: new RegExp(`^Step ${first.step_number}`) }).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.locator('.toast', { hasText: first.message }).waitFor();
    await page.screenshot({ path: `${SHOTS}/editor-story-problems.png` });

    // On a phone: the end screen's preview and its panel fit the width.
    const phone = await open(`/demos/${id}`, { width: 390, height: 844 });
    await phone.locator('.step-select').nth(5).click();
    await phone.getByRole('img', { name: /Preview of step 6/ }).waitFor();
    await phone.getByRole('img', { name: /Preview of step 6/ }).scrollIntoViewIfNeeded();
    await phone.screenshot({ path: `${SHOTS}/editor-story-390.png` });
    await panel(phone, 'Calls to action').scrollIntoViewIfNeeded();
    await phone.screenshot({ path: `${SHOTS}/editor-story-390-ctas.png` });
    expect(await overflowing(phone)).toEqual([]);
  });
  it('keeps every quick edit of an end screen’s buttons while reloads are slow (no reload brings an older value back)', async () => {
    const id = await demoWithSteps(server, key, 1, false);
    const page = await open(`/demos/${id}`);
    await addStep(page, 'End screen');
    await until(() => read(id), (d) => d.steps[1]?.kind === 'end', 'an end screen');
    const ctas = panel(page, 'Calls to action');
    // An end screen starts with two calls to action; a third is added.
    await ctas.getByLabel('Label (button 2)').waitFor();
    await ctas.getByRole('button', { name: 'Add button' }).click();
    await ctas.getByLabel('Label (button 3)').waitFor();
    await until(() => read(id), (d) => d.steps[1]!.content.buttons.length === 3, 'three buttons');
    // From here the demo's reloads answer 800 ms late: the reload after one save lands after the next edit.
    await page.route(/\/v1\/demos\/demo_[0-9a-z]+$/, async (route) => {
      if (route.request().method() === 'GET') await new Promise((r) => setTimeout(r, 800));
      await route.continue();
    });
    await type(ctas.getByLabel('Label (button 2)'), 'Sign up free');
    await page.waitForTimeout(300);
    await ctas.getByLabel('Style (button 1)').selectOption('link');
    await page.waitForTimeout(700);
    await type(ctas.getByLabel('Label (button 3)'), 'Watch again');
    await page.waitForTimeout(300);
    await ctas.getByLabel('On click (button 3)').selectOption({ label: 'Restart the demo' });
    const demo = await until(
      () => read(id),
      (d) => d.steps[1]!.content.buttons[2]?.action.type === 'restart',
      'the last edit saved',
    );
    const [first, second, third] = demo.steps[1]!.content.buttons;
    expect(first!.style).toBe('link');
    expect(second!.label).toBe('Sign up free');
    expect([third!.label, third!.action.type]).toEqual(['Watch again', 'restart']);
  });
});
