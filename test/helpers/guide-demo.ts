import type { LightMyRequestResponse } from 'fastify';
import { makeMockupPng } from './images';
import { bearer, type TestApp } from './test-app';

type Call = (method: string, url: string, payload?: unknown, headers?: Record<string, string>) => Promise<LightMyRequestResponse>;

/** HTTP calls with one API key, JSON or raw bodies. */
export function caller(t: TestApp, key: string): Call {
  return (method, url, payload, headers = {}) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...bearer(key), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

async function ok(res: Promise<LightMyRequestResponse>, status = [200, 201]) {
  const r = await res;
  if (!status.includes(r.statusCode)) throw new Error(`${r.statusCode}: ${r.body}`);
  return r.json().data;
}

/** A page step: a screenshot-like PNG, its text, a chapter, hotspots. */
async function pageStep(
  call: Call,
  demoId: string,
  fields: Record<string, unknown>,
  hotspots: Record<string, unknown>[],
  size: [number, number],
  accent: [number, number, number],
) {
  const step = await ok(call('POST', `/v1/demos/${demoId}/steps`, makeMockupPng(size[0], size[1], accent), { 'content-type': 'image/png' }));
  await ok(call('PATCH', `/v1/demos/${demoId}/steps/${step.id}`, fields));
  for (const h of hotspots) await ok(call('POST', `/v1/demos/${demoId}/steps/${step.id}/hotspots`, h));
  return step.id as string;
}

/**
 * The demo a support writer would export: a cover with rich text and a variable, two chapters, three
 * captured pages (one with two hotspots, links in a tooltip), a lead form and an end screen with a call to
 * action. Pictures are `size` (small for tests, 1280×800 for the bench).
 */
export async function seedGuideDemo(call: Call, size: [number, number] = [480, 300]) {
  const demo = await ok(call('POST', '/v1/demos', { title: 'Acme invoicing', configuration: { theme_color: '#0f766e' } }));
  const id = demo.id as string;
  await ok(
    call('POST', `/v1/demos/${id}/steps`, {
      kind: 'cover',
      title: 'Send your first invoice',
      description_html: '<p>Learn how to send an invoice to <b>{{company|your customer}}</b> in two minutes.</p>',
      content: { buttons: [{ id: 'start', label: 'Start the tour', action: { type: 'next' } }] },
    }),
  );
  const create = await ok(call('POST', `/v1/demos/${id}/chapters`, { title: 'Create the invoice', description: 'From the list to a draft.' }));
  const send = await ok(call('POST', `/v1/demos/${id}/chapters`, { title: 'Send it' }));
  const open = await pageStep(
    call,
    id,
    {
      title: 'Open Invoices',
      chapter_id: create.id,
      description_html: '<p>Select <b>Invoices</b> in the sidebar.</p><ul><li>Drafts are kept</li><li><i>Paid</i> ones are archived</li></ul>',
    },
    [{ x: 0.02, y: 0.2, width: 0.15, height: 0.07, label: 'Invoices', tooltip: 'Click Invoices' }],
    size,
    [15, 118, 110],
  );
  await pageStep(
    call,
    id,
    { title: 'Create a new invoice', chapter_id: create.id, description: 'Click New invoice at the top right.' },
    [
      { x: 0.8, y: 0.02, width: 0.16, height: 0.06, label: 'New invoice', tooltip: 'Start a draft here.' },
      {
        x: 0.3,
        y: 0.5,
        width: 0.3,
        height: 0.1,
        label: 'Import',
        tooltip_html: '<p>Or import from a <a href="https://help.acme.example/csv">CSV file</a></p>',
        action: { type: 'url', target: 'https://help.acme.example/import' },
      },
    ],
    size,
    [79, 70, 229],
  );
  await ok(
    call('POST', `/v1/demos/${id}/steps`, {
      kind: 'form',
      title: 'Tell us who you are',
      chapter_id: send.id,
      content: {
        buttons: [],
        form: {
          fields: [
            { name: 'email', label: 'E-mail', type: 'email', required: true },
            { name: 'company', label: 'Company', type: 'text' },
            { name: 'utm_source', type: 'hidden' },
          ],
        },
      },
    }),
  );
  await pageStep(
    call,
    id,
    { title: 'Send the invoice', chapter_id: send.id, description: 'Check the total, then send.' },
    [{ x: 0.7, y: 0.85, width: 0.2, height: 0.08, label: 'Send', tooltip: 'Hi {{name}}, press Send.', action: { type: 'goto', target: open } }],
    size,
    [220, 38, 38],
  );
  await ok(
    call('POST', `/v1/demos/${id}/steps`, {
      kind: 'end',
      title: 'You are ready',
      description: 'Your customer gets the invoice by e-mail.',
      content: {
        buttons: [
          { id: 'meet', label: 'Book a meeting', cta: 'book_meeting', action: { type: 'url', target: 'https://acme.example/meet' } },
          { id: 'again', label: 'Again', style: 'secondary', action: { type: 'restart' } },
        ],
      },
    }),
  );
  return id;
}

/** A plain demo of `count` page steps, each with a screenshot of `size` and one hotspot (the bench's 20-step demo). */
export async function seedPlainDemo(call: Call, count: number, size: [number, number]) {
  const demo = await ok(call('POST', '/v1/demos', { title: `Guide of ${count} steps` }));
  for (let i = 0; i < count; i++) {
    await pageStep(
      call,
      demo.id,
      { title: `Step ${i + 1}: do the thing`, description_html: `<p>Select <b>Item ${i + 1}</b>, then check the <i>result</i>.</p>` },
      [{ x: 0.1 + (i % 5) * 0.15, y: 0.2, width: 0.12, height: 0.08, label: `Item ${i + 1}`, tooltip: `Click item ${i + 1}` }],
      size,
      [(i * 37) % 255, 100, 200],
    );
  }
  return demo.id as string;
}
