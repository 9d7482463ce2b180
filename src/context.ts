// The types that connect the app, its kernel and its modules: what a caller injects and what a module receives.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { CredentialCache } from './auth/credential-cache';
import type { Config } from './config';
import type { BlobStore } from './core/blob-store/blob-store';
import type { Bus } from './core/bus';
import type { Changes } from './core/changes';
import type { Clock } from './core/clock';
import type { SafeFetch } from './core/net/safe-fetch';
import type { RateLimits } from './core/rate-limit';
import type { Database } from './db/client';
import type { OutboxConsumers } from './events/outbox';
import type { ReadRouting } from './db/read-replica';
import type { PublicOrigins } from './core/public-origins';
import type { DocumentPool } from './document-tasks';
import type { GenerateDemo } from './demos/demos.generator';
import type { JobQueue } from './jobs/queue';
import type { MailQueue } from './mail/mail-queue';
import type { Mailer } from './mail/mailer';
import type { Services } from './module';

/** What the app is built from: everything with a side effect comes in here, so tests can swap it. */
export interface AppDeps {
  config: Config;
  database: Database;
  secretKey: string;
  /** Durable jobs; started by the caller (runtime or test harness). */
  queue: JobQueue;
  clock?: Clock;
  bus?: Bus;
  redis?: Redis;
  mailer?: Mailer;
  /** Turns an address into steps; defaults to the generation module. */
  generator?: GenerateDemo;
  /** The document workers, when the caller shares them (the runtime, with the generator); else the app makes its own and closes it. */
  documents?: DocumentPool;
  /**
   * Where new assets' bytes go: a blob store, or null for their database rows. Unset: ASSET_STORE's
   * (asset-store.ts), which the app then closes; one given belongs to the caller.
   */
  assetStore?: BlobStore | null;
}

/**
 * The infrastructure every module may use, built once per app by `buildApp`: no domain's services here.
 * Modules reach each other's services only through the dependencies they name (src/module.ts).
 */
export interface Kernel {
  config: Config;
  database: Database;
  clock: Clock;
  bus: Bus;
  /** Where services announce what changed and caches hear it (core/changes.ts). */
  changes: Changes;
  /** Where reads that may be a little behind go: the replica of DATABASE_READ_URL when fit, else the primary. */
  reads: ReadRouting;
  mailer: Mailer;
  /** Durable e-mail (account links): queued in a transaction, delivered by the workers with retries. */
  mailQueue: MailQueue;
  queue: JobQueue;
  /** The SSRF-safe client for every server-side fetch of a user-given address. */
  net: SafeFetch;
  /** The worker threads that parse, clean and serialise documents, off the event loop (document-tasks.ts). */
  documents: DocumentPool;
  rateLimits: RateLimits;
  /** Who besides webhooks reads each batch of outbox events, in its transaction (events/outbox.ts). */
  outbox: OutboxConsumers;
  /** A workspace's origin for share links, hubs and embeds: its verified custom domain, else APP_URL (src/domains). */
  origins: PublicOrigins;
  generator: GenerateDemo;
  /** The blob store of new assets' bytes (ASSET_STORE), or undefined when they go in their database rows. */
  assetStore: BlobStore | undefined;
  credentials: CredentialCache;
  secrets: {
    /** Keys API-key digests (HMAC), so a stolen table cannot be brute-forced offline without it. */
    keyDigest: Buffer;
    /** Encrypts secrets that must be read back, such as webhook signing secrets. */
    sealing: Buffer;
  };
  log: FastifyBaseLogger;
}

/** The built app's kernel with every module's services, for the runtime and tests. */
export interface AppContext extends Kernel {
  services: Services;
}
