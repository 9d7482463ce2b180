import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import type { Page } from 'playwright-core';
import { makePng } from './images';

const FIXTURE_DIR = join(import.meta.dirname, '..', 'fixtures', 'recorder-app');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
const SESSION_COOKIE = 'ledgerly_session';

/** The recorder fixture app (test/fixtures/recorder-app), see its README. */
export interface RecorderApp {
  /** The app's origin with a trailing slash, e.g. http://127.0.0.1:4312/ (redirects to /login). */
  url: string;
  /** The other origin the theme stylesheet, its import, the web font and a CSS image come from. */
  styleOrigin: string;
  /** Paths requested from the app and from the style origin, in order (for checks that nothing was fetched). */
  requests: { app: string[]; styles: string[] };
  close(): Promise<void>;
}

/**
 * Starts "Ledgerly", a small invoicing app behind a login, on 127.0.0.1, and the origin its theme
 * stylesheet and font come from (another port, so cross-origin: the page cannot read that stylesheet's
 * rules). Any non-empty e-mail and password sign in.
 */
export async function startRecorderApp(): Promise<RecorderApp> {
  const requests = { app: [] as string[], styles: [] as string[] };
  const styles = createServer((req, res) => {
    requests.styles.push(req.url ?? '');
    void serveStyles(req, res);
  });
  const stylePort = await listen(styles);
  const styleOrigin = `http://127.0.0.1:${stylePort}`;
  const sessions = new Set<string>();
  const app = createServer((req, res) => {
    requests.app.push(`${req.method} ${req.url}`);
    void serveApp(req, res, { styleOrigin, sessions });
  });
  const appPort = await listen(app);
  return {
    url: `http://127.0.0.1:${appPort}/`,
    styleOrigin,
    requests,
    close: async () => {
      await Promise.all([close(app), close(styles)]);
    },
  };
}

/** What `openInvoiceForm` types into the create-invoice form; `apiSecret` and `card` must never be recorded. */
export const INVOICE_FORM = {
  client: 'Acme GmbH',
  amount: '4200',
  currency: 'EUR',
  due: '2026-12-31',
  notes: 'Net 30, thank you!',
  apiSecret: 'sk_live_51HzSECRETvalue',
  card: '4242 4242 4242 4242',
  /** Shown in the form inside `data-demoshare-redact`. */
  redactedEmail: 'jane.doe@acme.test',
} as const;

/** Signs in through the login form; the page ends on the invoices list. */
export async function signIn(page: Page, app: RecorderApp): Promise<void> {
  await page.goto(app.url);
  await page.fill('input[name=email]', 'sam@ledgerly.test');
  await page.fill('input[name=password]', 'correct horse battery staple');
  await page.click('button[type=submit]');
  await page.waitForURL('**/app/invoices');
}

/**
 * Signs in, opens the create-invoice form through the app's own navigation (a pushState route) and fills
 * it in with INVOICE_FORM, then waits for the preview frame, the fonts and the images.
 */
export async function openInvoiceForm(page: Page, app: RecorderApp): Promise<void> {
  await signIn(page, app);
  await page.click('#create-invoice');
  await page.waitForURL('**/app/invoices/new');
  await page.fill('input[name=client]', INVOICE_FORM.client);
  await page.fill('input[name=amount]', INVOICE_FORM.amount);
  await page.selectOption('select[name=currency]', INVOICE_FORM.currency);
  await page.fill('input[name=due]', INVOICE_FORM.due);
  await page.fill('textarea[name=notes]', INVOICE_FORM.notes);
  await page.check('input[name=reminder]');
  await page.fill('input[name=apiSecret]', INVOICE_FORM.apiSecret);
  await page.fill('input[name=card]', INVOICE_FORM.card);
  await page.frameLocator('#preview').locator('#preview-total', { hasText: '4,200' }).waitFor();
  await page.evaluate(() =>
    Promise.all([document.fonts.ready, ...[...document.images].map((img) => img.decode().catch(() => undefined))]).then(() => undefined),
  );
}

async function serveApp(req: IncomingMessage, res: ServerResponse, ctx: { styleOrigin: string; sessions: Set<string> }): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://app');
  const path = url.pathname;
  const signedIn = ctx.sessions.has(cookie(req, SESSION_COOKIE) ?? '');
  if (path === '/') return redirect(res, signedIn ? '/app/invoices' : '/login');
  if (path === '/login' && req.method === 'POST') {
    const form = new URLSearchParams(await body(req));
    if (!form.get('email')?.trim() || !form.get('password')) return redirect(res, '/login?error=1');
    const session = crypto.randomUUID();
    ctx.sessions.add(session);
    res.setHeader('set-cookie', `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax`);
    return redirect(res, '/app/invoices');
  }
  if (path === '/login') return sendFile(res, 'app/login.html', ctx.styleOrigin);
  if (path === '/logout') {
    res.setHeader('set-cookie', `${SESSION_COOKIE}=; Path=/; Max-Age=0`);
    return redirect(res, '/login');
  }
  if (path === '/large') return send(res, 200, TYPES['.html']!, largePage(Number(url.searchParams.get('n') ?? 10_000), ctx.styleOrigin));
  if (path.startsWith('/static/')) return sendFile(res, `app/${path.slice('/static/'.length)}`, ctx.styleOrigin);
  if (path === '/app' || path.startsWith('/app/')) {
    // Everything in the app, its frame and its files included, is behind the login.
    if (!signedIn) return redirect(res, '/login');
    if (path === '/app/files/avatar.png') return send(res, 200, TYPES['.png']!, makePng(64, 64, [234, 88, 12]));
    if (path === '/app/preview') return sendFile(res, 'app/preview.html', ctx.styleOrigin);
    return sendFile(res, 'app/app.html', ctx.styleOrigin);
  }
  send(res, 404, 'text/plain', 'Not found');
}

/** The style origin: stylesheets without CORS (unreadable through the CSSOM), fonts with it, as CDNs do. */
async function serveStyles(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://styles').pathname;
  if (extname(path) === '.woff2') res.setHeader('access-control-allow-origin', '*');
  await sendFile(res, `styles/${path.slice(1)}`, '');
}

async function sendFile(res: ServerResponse, file: string, styleOrigin: string): Promise<void> {
  const safe = normalize(file).replace(/^(\.\.[/\\])+/, '');
  try {
    let data = await readFile(join(FIXTURE_DIR, safe));
    const type = TYPES[extname(safe)] ?? 'application/octet-stream';
    if (type.startsWith('text/html')) data = Buffer.from(data.toString('utf8').replaceAll('{{STYLE_ORIGIN}}', styleOrigin));
    send(res, 200, type, data);
  } catch {
    send(res, 404, 'text/plain', 'Not found');
  }
}

/**
 * A page of about `n` elements for the freeze benchmark: an invoice table of rows of cells, some with
 * inputs, under the same theme as the app, so stylesheet work is realistic too.
 */
export function largePage(n: number, styleOrigin: string): string {
  const perRow = 10; // tr, 6 td, an input, a span, a button
  const rows: string[] = [];
  for (let i = 0; i < Math.max(1, Math.round(n / perRow)); i++) {
    rows.push(
      `<tr><td>INV-${10_000 + i}</td><td>Client ${i}</td><td class="amount">€${(i * 13.7).toFixed(2)}</td>` +
        `<td><span class="status-draft">Draft</span></td><td><input name="note-${i}" value="note ${i}"></td>` +
        `<td><button class="btn btn-secondary" type="button">Open</button></td></tr>`,
    );
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Large page</title>
<link rel="stylesheet" href="${styleOrigin}/theme.css"><link rel="stylesheet" href="/static/app.css"></head>
<body><main class="content"><h1 class="page-title">All invoices</h1><div class="card"><table class="table"><tbody>
${rows.join('\n')}
</tbody></table></div></main></body></html>`;
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location }).end();
}

function send(res: ServerResponse, status: number, type: string, data: string | Buffer): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(data);
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(/;\s*/)) {
    const [key, ...value] = pair.split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
