/// <reference types="chrome" />
import { mkdirSync, mkdtempSync, readdirSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildExtension, EXTENSION_DIR } from '../../scripts/build-extension';
import { CHROMIUM_BASE_ARGS } from '../../src/generation/chromium';
import { CHROMIUM } from './browser';

export interface ExtensionBrowser {
  context: BrowserContext;
  extensionId: string;
  /**
   * Sends a message to the extension's background worker from a page of the extension, as the popup does
   * (waking the worker if the browser stopped it), and answers the worker's reply.
   */
  send<T = unknown>(message: Record<string, unknown>): Promise<{ ok: boolean; result?: T; error?: string }>;
  /** The extension's chrome.storage.local, read and written as the extension's own pages do. */
  storage<T = Record<string, unknown>>(): Promise<T>;
  setStorage(items: Record<string, unknown>): Promise<void>;
  /** The id of the tab showing `page`, as the extension knows it. */
  tabIdOf(page: Page): Promise<number>;
  /** Stops the service worker the way the browser does when it is idle, through the DevTools protocol. */
  stopServiceWorker(): Promise<void>;
  close(): Promise<void>;
}

let built: Promise<{ dir: string }> | undefined;

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCES = [join(ROOT, 'extension'), join(ROOT, 'scripts/build-extension.ts')];
const LOCK = join(ROOT, 'dist/.extension-build-lock');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newestMtime(join(path, entry))));
}

function isFresh(): boolean {
  try {
    return statSync(join(EXTENSION_DIR, 'popup.js')).mtimeMs >= Math.max(...SOURCES.map(newestMtime));
  } catch {
    return false;
  }
}

/**
 * Builds dist/extension (as npm run build:extension does) when it is missing or older than its sources,
 * once per test process; a directory lock keeps parallel test files from building into it at once.
 */
export function builtExtension(): Promise<{ dir: string }> {
  built ??= (async () => {
    mkdirSync(join(ROOT, 'dist'), { recursive: true });
    for (let attempt = 0; ; attempt++) {
      try {
        mkdirSync(LOCK);
        break;
      } catch {
        if (attempt > 600) rmdirSync(LOCK); // a stale lock from a killed run; a build takes seconds
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
    try {
      if (!isFresh()) await buildExtension();
      return { dir: EXTENSION_DIR };
    } finally {
      rmdirSync(LOCK);
    }
  })();
  return built;
}

/**
 * Headless Chromium with the built recorder extension loaded: extensions need a persistent profile, and
 * Playwright's default --disable-extensions must go.
 */
export async function launchWithExtension(viewport = { width: 1280, height: 800 }, extensionDir?: string): Promise<ExtensionBrowser> {
  if (!CHROMIUM.path) throw new Error(`the recorder extension needs Chromium: ${CHROMIUM.reason}`);
  const dir = extensionDir ?? (await builtExtension()).dir;
  const profile = mkdtempSync(join(tmpdir(), 'demoshare-extension-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM.path,
    headless: true,
    viewport,
    ignoreDefaultArgs: ['--disable-extensions'],
    args: [...CHROMIUM_BASE_ARGS, `--disable-extensions-except=${dir}`, `--load-extension=${dir}`],
  });
  const first = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(first.url()).host;

  const control = await context.newPage();
  await control.goto(`chrome-extension://${extensionId}/icons/icon-48.png`);
  const cdp = await context.newCDPSession(control);
  const stopped: (() => void)[] = [];
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    if (versions.some((v) => v.scriptURL.startsWith(`chrome-extension://${extensionId}/`) && v.runningStatus === 'stopped')) {
      for (const resolve of stopped.splice(0)) resolve();
    }
  });
  await cdp.send('ServiceWorker.enable');

  async function send<T>(message: Record<string, unknown>) {
    return control.evaluate((m) => chrome.runtime.sendMessage(m), message) as Promise<{ ok: boolean; result?: T; error?: string }>;
  }

  const storage = <T>() => control.evaluate(() => chrome.storage.local.get(null)) as Promise<T>;
  const setStorage = (items: Record<string, unknown>) => control.evaluate((i) => chrome.storage.local.set(i), items);

  async function tabIdOf(page: Page): Promise<number> {
    const url = page.url();
    const id = await control.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
    if (id === undefined) throw new Error(`no tab shows ${url}`);
    return id;
  }

  async function stopServiceWorker(): Promise<void> {
    const done = new Promise<void>((resolve) => stopped.push(resolve));
    await cdp.send('ServiceWorker.stopAllWorkers');
    await done;
  }

  return {
    context,
    extensionId,
    send,
    storage,
    setStorage,
    tabIdOf,
    stopServiceWorker,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
