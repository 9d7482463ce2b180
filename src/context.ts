import type { Redis } from 'ioredis';
import type { AccountsService } from './accounts/accounts.service';
import type { ApiKeysService } from './api-keys/api-keys.service';
import type { CredentialCache } from './auth/credential-cache';
import type { Config } from './config';
import type { Bus } from './core/bus';
import type { Changes } from './core/changes';
import type { Clock } from './core/clock';
import type { SafeFetch } from './core/net/safe-fetch';
import type { RateLimits } from './core/rate-limit';
import type { Database } from './db/client';
import type { GenerateDemo } from './demos/demos.generator';
import type { DemosService } from './demos/demos.service';
import type { StepsService } from './demos/steps.service';
import type { JobQueue } from './jobs/queue';
import type { Mailer } from './mail/mailer';
import type { OAuthAppsService } from './oauth/oauth-apps.service';
import type { OAuthTokensService } from './oauth/oauth-tokens.service';
import type { SharesService } from './shares/shares.service';
import type { ViewerCache } from './viewer/viewer-cache';
import type { ViewerContent } from './viewer/viewer-content.service';
import type { ViewerGates } from './viewer/viewer.service';
import type { TeamService } from './team/team.service';
import type { WebhooksService } from './webhooks/webhooks.service';
import type { Ingestion } from './views/views.ingest';
import type { ViewsService } from './views/views.service';

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
}

/** Everything route modules and services share, built once per app by `buildApp`. */
export interface AppContext {
  config: Config;
  database: Database;
  clock: Clock;
  bus: Bus;
  /** Where services announce what changed and caches hear it (core/changes.ts). */
  changes: Changes;
  mailer: Mailer;
  queue: JobQueue;
  /** The SSRF-safe client for every server-side fetch of a user-given address. */
  net: SafeFetch;
  rateLimits: RateLimits;
  generator: GenerateDemo;
  credentials: CredentialCache;
  secrets: {
    /** Keys API-key digests (HMAC), so a stolen table cannot be brute-forced offline without it. */
    keyDigest: Buffer;
    /** Encrypts secrets that must be read back, such as webhook signing secrets. */
    sealing: Buffer;
  };
  services: {
    accounts: AccountsService;
    apiKeys: ApiKeysService;
    team: TeamService;
    oauthApps: OAuthAppsService;
    oauthTokens: OAuthTokensService;
    demos: DemosService;
    steps: StepsService;
    webhooks: WebhooksService;
    shares: SharesService;
    viewer: ViewerGates & ViewerContent;
    ingestion: Ingestion;
    views: ViewsService;
  };
  /** Links, demo payloads and viewer sessions for the viewer routes. */
  viewerCache: ViewerCache;
}
