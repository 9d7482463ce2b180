import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demosCommand } from '../src/cli/demos-command';
import { CHROMIUM } from './helpers/browser';
import { caller, seedGuideDemo } from './helpers/guide-demo';
import { createTestApp, type TestApp } from './helpers/test-app';

/** Issue 30, item 4: a demo as a written guide, Markdown (zip) and PDF. */
describe('guide export', () => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let demoId: string;
  let key: string;

  beforeAll(async () => {
    t = await createTestApp();
    key = await t.apiKey('all');
    call = caller(t, key);
    demoId = await seedGuideDemo(call);
  });
  afterAll(() => t?.close());

  const guideUrl = (id: string, query: string) => `/v1/demos/${id}/export/guide?${query}`;

  it('writes guide.md with headings, rich text, variables as fallbacks, marked pictures that exist in the zip', async () => {
    const res = await call('GET', guideUrl(demoId, 'format=markdown'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="acme-invoicing-guide.zip"');
    expect(res.headers['x-guide-steps']).toBe('4');
    const zip = unzipSync(new Uint8Array(res.rawPayload));
    const md = Buffer.from(zip['guide.md']!).toString('utf8');

    const headings = md.split('\n').filter((line) => line.startsWith('#'));
    expect(headings).toEqual([
      '# Acme invoicing',
      '## Create the invoice',
      '### 1. Open Invoices',
      '### 2. Create a new invoice',
      '## Send it',
      '### 3. Tell us who you are',
      '### 4. Send the invoice',
      '## You are ready',
    ]);
    // The cover is the introduction; its start button is the player's, not the reader's.
    expect(md).toContain('**Send your first invoice**\n\nLearn how to send an invoice to **your customer** in two minutes.');
    expect(md).not.toContain('Start the tour');
    expect(md).toContain('Select **Invoices** in the sidebar.\n\n- Drafts are kept\n- *Paid* ones are archived');
    // Two hotspots: numbered as on the picture, the link of a rich tooltip kept, where the second one leads.
    expect(md).toContain('1. **New invoice**: Start a draft here.');
    expect(md).toContain('2. **Import**: Or import from a [CSV file](https://help.acme.example/csv). Opens <https://help.acme.example/import>.');
    expect(md).toContain('Fill in the form:\n\n- **E-mail** (required)\n- **Company**\n\nThen select **Continue**.');
    expect(md).not.toContain('utm_source');
    // {{name}} has no fallback: nothing, and no stray space before the comma.
    expect(md).toContain('Hi, press Send.\n\n**Send** goes to step 1 (Open Invoices).');
    expect(md).toContain('- [Book a meeting](https://acme.example/meet)');
    expect(md).not.toContain('Again');

    const links = [...md.matchAll(/!\[([^\]]*)\]\(([^)]+)\)/g)].map((m) => m[2]!);
    expect(links).toEqual(['images/01-open-invoices.png', 'images/02-create-a-new-invoice.png', 'images/04-send-the-invoice.png']);
    for (const link of links) expect(zip[link], link).toBeDefined();
    expect(Object.keys(zip).sort()).toEqual(['guide.md', ...links].sort());

    // The marked picture differs from the screenshot around the hotspot's box, and nowhere far from it.
    const steps = (await call('GET', `/v1/demos/${demoId}`)).json().data.steps as Array<{ title: string; image_url: string }>;
    const open = steps.find((s) => s.title === 'Open Invoices')!;
    const original = await sharp(Buffer.from((await call('GET', new URL(open.image_url).pathname)).rawPayload)).raw().toBuffer({ resolveWithObject: true });
    const marked = await sharp(Buffer.from(zip[links[0]!]!)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect([marked.info.width, marked.info.height]).toEqual([original.info.width, original.info.height]);
    const { width, height } = original.info;
    const differs = (x0: number, y0: number, x1: number, y1: number) => {
      let n = 0;
      for (let y = Math.max(0, y0); y < Math.min(height, y1); y++) {
        for (let x = Math.max(0, x0); x < Math.min(width, x1); x++) {
          const i = (y * width + x) * 3;
          if (Math.abs(original.data[i]! - marked.data[i]!) + Math.abs(original.data[i + 1]! - marked.data[i + 1]!) > 30) n++;
        }
      }
      return n;
    };
    // Hotspot: x 0.02..0.17, y 0.2..0.27 of 480×300.
    const box = { left: Math.round(0.02 * width), top: Math.round(0.2 * height), right: Math.round(0.17 * width), bottom: Math.round(0.27 * height) };
    expect(differs(box.left - 10, box.top - 10, box.right + 10, box.top + 1)).toBeGreaterThan(50);
    expect(differs(box.left + 6, box.top + 6, box.right - 6, box.bottom - 6)).toBe(0);
    expect(differs(width / 2, height / 2, width, height)).toBe(0);
  });

  it.skipIf(!CHROMIUM.path)('prints a PDF: a title page, every step title, the chapters, links kept', async () => {
    const res = await call('GET', guideUrl(demoId, 'format=pdf'));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="acme-invoicing-guide.pdf"');
    const bytes = new Uint8Array(res.rawPayload);
    expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    const { totalPages, text } = await extractText(await getDocumentProxy(bytes), { mergePages: false });
    // Title page, then one page per chapter at least.
    expect(totalPages).toBeGreaterThanOrEqual(3);
    expect(text[0]).toContain('Acme invoicing');
    expect(text[0]).toContain('Contents');
    const body = text.slice(1).join('\n');
    for (const title of ['Create the invoice', 'Open Invoices', 'Create a new invoice', 'Tell us who you are', 'Send the invoice', 'You are ready']) {
      expect(body).toContain(title);
    }
    expect(body).toContain('press Send');
    expect(body).toContain('Book a meeting');
    expect(text[1]).toMatch(/2 \/ \d/);
  });

  it('exports the published version: 409 before the first publish, then what was published, not later edits', async () => {
    const before = await call('GET', guideUrl(demoId, 'version=published'));
    expect(before.statusCode, before.body).toBe(409);
    expect(before.json().error.code).toBe('conflict');
    expect((await call('POST', `/v1/demos/${demoId}/publish`, {})).statusCode).toBe(200);
    const steps = (await call('GET', `/v1/demos/${demoId}`)).json().data.steps as Array<{ id: string; title: string }>;
    const step = steps.find((s) => s.title === 'Open Invoices')!;
    await call('PATCH', `/v1/demos/${demoId}/steps/${step.id}`, { title: 'Renamed in the draft' });
    const published = unzipSync(new Uint8Array((await call('GET', guideUrl(demoId, 'version=published'))).rawPayload));
    expect(Buffer.from(published['guide.md']!).toString()).toContain('### 1. Open Invoices');
    const draft = unzipSync(new Uint8Array((await call('GET', guideUrl(demoId, 'version=draft'))).rawPayload));
    expect(Buffer.from(draft['guide.md']!).toString()).toContain('### 1. Renamed in the draft');
  });

  it('refuses bad input with 4xx in the error envelope', async () => {
    const empty = (await call('POST', '/v1/demos', { title: 'Empty' })).json().data.id as string;
    const cases: Array<[string, number, string]> = [
      [guideUrl(demoId, 'format=docx'), 400, 'invalid_request'],
      [guideUrl(demoId, 'format=pdf&version=7'), 400, 'invalid_request'],
      [guideUrl(demoId, 'format=markdown&color=red'), 400, 'invalid_request'],
      [guideUrl('demo_nope', 'format=markdown'), 400, 'invalid_request'],
      [guideUrl('demo_01jzzzzzzzzzzzzzzzzzzzzzzz', 'format=markdown'), 404, 'not_found'],
      [guideUrl(empty, 'format=markdown'), 409, 'conflict'],
      [guideUrl(empty, 'format=pdf'), 409, 'conflict'],
    ];
    for (const [url, status, code] of cases) {
      const res = await call('GET', url);
      expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
      expect(res.json().error.code, url).toBe(code);
    }
    // Another workspace's demo is not found; a key without demos:read is refused.
    const other = caller(t, await t.apiKey('all'));
    expect((await other('GET', guideUrl(demoId, 'format=markdown'))).statusCode).toBe(404);
    const noRead = caller(t, await t.apiKey(['analytics:read']));
    expect((await noRead('GET', guideUrl(demoId, 'format=markdown'))).json().error.code).toBe('insufficient_scope');
  });

  it('demoshare demos guide writes guide.md and images/ into a folder (dropping pictures it no longer names); exit 1 on a refusal, 2 on usage', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const dir = mkdtempSync(join(tmpdir(), 'guide-cli-'));
    try {
      mkdirSync(join(dir, 'images'));
      writeFileSync(join(dir, 'images', '09-a-step-since-deleted.png'), 'old');
      writeFileSync(join(dir, 'images', 'logo.png'), 'not the guide’s');
      const lines: string[] = [];
      const out = { stdout: (s: string) => lines.push(s), stderr: (s: string) => lines.push(s) };
      const run = (args: string[]) => demosCommand(['guide', ...args, '--url', url, '--token', key], {}, out);
      expect(await run([demoId, '--out', dir, '--version', 'draft']), lines.join('\n')).toBe(0);
      expect(readFileSync(join(dir, 'guide.md'), 'utf8')).toContain('# Acme invoicing');
      expect(readdirSync(join(dir, 'images')).sort()).toEqual(['01-renamed-in-the-draft.png', '02-create-a-new-invoice.png', '04-send-the-invoice.png', 'logo.png']);
      expect(lines.at(-1)).toBe(`Wrote the guide (4 steps, 3 images) to ${join(dir, 'guide.md')}`);
      const empty = (await call('POST', '/v1/demos', { title: 'Nothing yet' })).json().data.id as string;
      expect(await run([empty, '--out', dir])).toBe(1);
      expect(lines.at(-1)).toContain('(409 conflict)');
      expect(await run([demoId, '--format', 'docx', '--out', dir])).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('answers 503 naming format for a PDF on a server without Chromium; Markdown still works there', async () => {
    const bare = await createTestApp({ config: { CHROMIUM_PATH: null } });
    try {
      const bareCall = caller(bare, await bare.apiKey('all'));
      const demo = (await bareCall('POST', '/v1/demos', { title: 'One step' })).json().data.id as string;
      await bareCall('POST', `/v1/demos/${demo}/steps`, { title: 'Only step' });
      const pdf = await bareCall('GET', guideUrl(demo, 'format=pdf'));
      expect(pdf.statusCode, pdf.body).toBe(503);
      expect(pdf.json().error).toMatchObject({ code: 'unavailable', details: [{ field: 'format' }] });
      const md = await bareCall('GET', guideUrl(demo, 'format=markdown'));
      expect(md.statusCode, md.body).toBe(200);
      expect(Buffer.from(unzipSync(new Uint8Array(md.rawPayload))['guide.md']!).toString()).toContain('## 1. Only step');
    } finally {
      await bare.close();
    }
  });
});
