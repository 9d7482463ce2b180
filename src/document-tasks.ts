// The one table of document work (parse, sanitise, serialise) run off the event loop, and its worker pool.
import type { Config } from './config';
import { WorkerPool } from './core/worker-pool';
import { applyPagePatches, matchPagePatches } from './demos/apply-page-patches';
import { packDemoArchive, unpackDemoArchive } from './demo-format/demo-archive';
import { redactSnapshot } from './demos/redact-snapshot';
import { finishSnapshot, prepareSheets, prepareSnapshot } from './generation/snapshot-work';
import { cleanSnapshot } from './recordings/recorded-step';
import { queryTargets } from './staleness/target-query';
import { buildOfflineBundle } from './offline/offline-bundle';
import { pageTexts, translatePage } from './translations/page-text';
import { checkTranslationFile, writeTranslationFile } from './translations/translation-files';
import { pictureReferences } from './offline/offline-snapshot';

/**
 * Every piece of work that parses, walks or serialises a document, as the document workers run it
 * (document-worker.ts). One table for all of them, so that one pool (one queue, one budget) serves
 * recordings, redactions and generation alike. `mayReach` is the SSRF guard's syntax check, rebuilt in each
 * thread from ALLOW_PRIVATE_NETWORK_CIDRS (a function cannot cross to a thread).
 *
 * @example
 * ```ts
 * import { AddressPolicy } from './core/net/address-policy';
 * import { SafeFetch } from './core/net/safe-fetch';
 * import { serveTasks } from './core/worker-pool';
 * import { createDocumentTasks } from './document-tasks';
 *
 * const net = new SafeFetch(AddressPolicy.fromList(undefined));
 * const mayReach = (url: string) => {
 *   try {
 *     net.parse(url); // throws for an address the policy refuses
 *     return true;
 *   } catch {
 *     return false;
 *   }
 * };
 * serveTasks(createDocumentTasks(mayReach)); // what document-worker.ts does
 * ```
 */
export function createDocumentTasks(mayReach: (url: string) => boolean) {
  return {
    cleanSnapshot: (html: string, pageUrl: string) => cleanSnapshot(html, pageUrl, mayReach),
    redactSnapshot,
    applyPagePatches,
    matchPagePatches,
    prepareSnapshot: (html: string, pageUrl: string) => prepareSnapshot(html, pageUrl, mayReach),
    prepareSheets: (sheets: Array<{ css: string; url: string }>) => prepareSheets(sheets, mayReach),
    finishSnapshot,
    packDemoArchive,
    unpackDemoArchive,
    queryTargets,
    buildOfflineBundle,
    pageTexts,
    translatePage,
    writeTranslationFile,
    checkTranslationFile,
    pictureReferences,
  };
}

export type DocumentTasks = ReturnType<typeof createDocumentTasks>;
export type DocumentPool = WorkerPool<DocumentTasks>;

/** What each thread is started with. */
export interface DocumentWorkerData {
  allowPrivateNetworkCidrs: string;
}

const DOCUMENT_WORKER_MEMORY_MB = 1024;

/**
 * The pool of document workers a process runs; its threads start with the first task, not here.
 *
 * @example
 * ```ts
 * import { testConfig } from './config';
 * import { createDocumentPool } from './document-tasks';
 *
 * const documents = createDocumentPool(testConfig()); // one per process, shared by the generator and the app
 * await documents.close();
 * ```
 */
export function createDocumentPool(
  config: Pick<Config, 'DOCUMENT_WORKERS' | 'DOCUMENT_QUEUE' | 'DOCUMENT_TASK_TIMEOUT' | 'ALLOW_PRIVATE_NETWORK_CIDRS'>,
): DocumentPool {
  return new WorkerPool<DocumentTasks>({
    entry: new URL('./document-worker.ts', import.meta.url),
    size: config.DOCUMENT_WORKERS,
    maxQueue: config.DOCUMENT_QUEUE,
    timeoutMs: config.DOCUMENT_TASK_TIMEOUT,
    // An 8 MB snapshot (RECORDING_SNAPSHOT_MAX_BYTES) parses and cleans in about 300 MB: room for it, and a cap
    // well under what one process should hold.
    maxMemoryMb: DOCUMENT_WORKER_MEMORY_MB,
    data: { allowPrivateNetworkCidrs: config.ALLOW_PRIVATE_NETWORK_CIDRS } satisfies DocumentWorkerData,
    settings: { timeout: 'DOCUMENT_TASK_TIMEOUT', queue: 'DOCUMENT_QUEUE' },
  });
}
