// Every setting the service reads from its environment, validated once at start-up with every problem reported together.
import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseDuration } from './core/time';
import { findChromium } from './generation/chromium';

const duration = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      try {
        return parseDuration(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });

const durationList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      try {
        return value.split(',').map((part) => parseDuration(part));
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const optionalUrl = z
  .string()
  .optional()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional());

const byteSize = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const match = /^(\d+)(b|kb|mb)?$/i.exec(value.trim());
      if (!match) {
        ctx.addIssue({ code: 'custom', message: `"${value}" is not a size such as 1mb, 512kb or 1048576` });
        return z.NEVER;
      }
      const unit = { b: 1, kb: 1024, mb: 1024 * 1024 }[(match[2] ?? 'b').toLowerCase() as 'b'];
      return Number(match[1]) * unit;
    });

/** Every setting the service reads from its environment, with its default. README.md documents each one. */
const settingsSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  /**
   * `demoshare worker` only: the port of its /healthz, /readyz and /metrics (health/health.worker-server.ts),
   * on HOST. Unset: a worker listens on nothing, as before; a default would make a second worker on the same
   * machine fail to start on a port taken by the first.
   */
  WORKER_PORT: z.coerce
    .number({ error: 'must be a port number from 1 to 65535, or unset for no port' })
    .int('must be a port number from 1 to 65535, or unset for no port')
    .min(1, 'must be a port number from 1 to 65535, or unset for no port')
    .max(65535, 'must be a port number from 1 to 65535, or unset for no port')
    .optional(),
  APP_URL: optionalUrl,
  API_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl,
  DATABASE_POOL_SIZE: positiveInt(10),
  /** PostgreSQL: a request waiting longer than this for a connection gets 503 instead of waiting on. */
  DATABASE_ACQUIRE_TIMEOUT: duration('10s'),
  /**
   * A streaming replica of DATABASE_URL for reads that may be a little behind: analytics, list pages and
   * viewer payloads built anew (db/read-replica.ts, docs/scaling.md). Unset: everything reads the primary.
   */
  DATABASE_READ_URL: optionalUrl,
  /** A replica further behind than this (measured) serves no reads until it catches up. */
  DATABASE_READ_MAX_LAG: duration('5s'),
  /** How often the replica's lag is measured; the measured lag includes up to one interval. */
  DATABASE_READ_PROBE_INTERVAL: duration('500ms'),
  /**
   * Load shedding, for `demoshare serve` behind a load balancer (core/http/overload.ts): once the event loop's
   * median delay stays above this for 3 s in a row, every request but /healthz and /metrics gets 503 until it
   * falls. Off (0s) by default: a lone server has nowhere to send what it refuses, so its users would be
   * refused for a moment of load they would rather wait out. Measured (bench/overload.ts): a few ms at 70 %
   * of capacity, 150-250 ms at twice it.
   */
  MAX_EVENT_LOOP_DELAY: duration('0s'),
  /** Embedded database only: how often to vacuum and analyze the tables that are due (0s: never). */
  EMBEDDED_MAINTENANCE_INTERVAL: duration('1m'),
  REDIS_URL: optionalUrl,
  SECRET_KEY: z
    .string()
    .min(32, 'must be at least 32 characters (or leave it unset to have one generated in DATA_DIR)')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  BODY_LIMIT: byteSize('1mb'),
  RATE_LIMIT_PER_MINUTE: positiveInt(600),
  RATE_LIMIT_PUBLIC_PER_MINUTE: positiveInt(120),
  RATE_LIMIT_LOGIN_PER_MINUTE: positiveInt(10),
  SESSION_TTL: duration('14d'),
  INVITATION_TTL: duration('7d'),
  PASSWORD_RESET_TTL: duration('1h'),
  EMAIL_VERIFICATION_TTL: duration('3d'),
  LOGIN_FAILURES_PER_ADDRESS: positiveInt(10),
  SIGNUP: z.enum(['open', 'invite', 'domains']).default('open').meta({
    description:
      'Who may create an account: open (anyone), invite (only through an invitation link), domains (addresses at SIGNUP_ALLOWED_DOMAINS, and anyone invited). The first account of an empty server is accepted in every mode.',
  }),
  SIGNUP_ALLOWED_DOMAINS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/, 'each must be a domain such as example.com (no @, no scheme)')))
    .meta({ description: 'Comma-separated e-mail domains whose addresses may sign up when SIGNUP=domains (exact domains: list subdomains too).' }),
  KEY_ROTATION_GRACE: duration('24h'),
  OAUTH_DYNAMIC_REGISTRATION: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description: 'Let any client register itself as a public OAuth client at POST /v1/oauth/register (RFC 7591), as MCP clients do.' }),
  OAUTH_REFRESH_GRACE: duration('5s').meta({
    description: 'How long after a refresh token is used a second refresh with it gets the same new tokens (concurrent requests); later reuse revokes the authorisation.',
  }),
  ALLOW_PRIVATE_NETWORK_CIDRS: z
    .string()
    .default('')
    .meta({ description: 'Comma-separated CIDR ranges that server-side fetches may reach despite the SSRF guard.' }),
  ASSET_STORE: z.enum(['database', 'filesystem', 's3']).optional().meta({
    description:
      'Where the bytes of demo assets (screenshots, snapshots) go: filesystem (content-addressed files under DATA_DIR/blobs; the default on the embedded database), database (in their rows; the default with DATABASE_URL, whose processes may run on several machines) or s3 (any S3-compatible bucket, S3_*). Assets written before a change stay readable where they are (docs/object-storage.md).',
  }),
  S3_BUCKET: z.string().min(1).optional().meta({ description: 'ASSET_STORE=s3: the bucket (created beforehand).' }),
  S3_ENDPOINT: optionalUrl.meta({ description: 'ASSET_STORE=s3: the store\'s address (MinIO, R2, …); unset: AWS S3 of S3_REGION.' }),
  S3_REGION: z.string().min(1).default('us-east-1').meta({ description: 'ASSET_STORE=s3: the region to sign for (R2: auto).' }),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true')
    .meta({ description: 'ASSET_STORE=s3: address the bucket in the path (endpoint/bucket/key), as MinIO and most self-hosted stores need.' }),
  S3_PREFIX: z.string().default('').meta({ description: 'ASSET_STORE=s3: prepended to every object key, so that several instances can share a bucket.' }),
  ASSET_GC_GRACE: duration('24h').meta({
    description:
      'ASSET_STORE=filesystem or s3: how long a blob no asset names is kept before the daily collector deletes it (a blob put again meanwhile is kept); at least 1h.',
  }),
  ASSET_REDIRECT: z.enum(['off', 'presigned']).default('off').meta({
    description:
      "ASSET_STORE=s3: presigned answers the asset requests of public links (published, no password, no e-mail gate, no allow-list, no expiry) for images in the bucket with a redirect to a presigned GET of the object; gated links' assets are always served by Demoshare after the gates (docs/object-storage.md).",
  }),
  ASSET_PRESIGN_TTL: duration('10m').meta({
    description: 'ASSET_REDIRECT=presigned: how long a presigned address stays valid (1m to 7d); browsers keep the redirect half as long.',
  }),
  ASSET_PUBLIC_URL: optionalUrl.meta({
    description:
      "ASSET_STORE=filesystem or s3: the base address of a CDN whose origin is Demoshare's /v1/public-assets (or, s3, the bucket at S3_PREFIX); the payloads of public links then name their images <ASSET_PUBLIC_URL>/sha256/<hex> (immutable). Gated links' payloads never do.",
  }),
  S3_TIMEOUT: duration('10s').meta({ description: 'ASSET_STORE=s3: how long one request to the store may take before it fails (an upload is then a 503).' }),
  STEP_IMAGE_MAX_BYTES: byteSize('5mb'),
  RECORDING_STEP_MAX_BYTES: byteSize('24mb').meta({
    description: 'Largest request body of one recorded step (PUT /v1/recordings/{id}/steps/{number}): screenshot, snapshot and text.',
  }),
  RECORDING_SNAPSHOT_MAX_BYTES: byteSize('8mb').meta({
    description: 'Largest HTML snapshot of one recorded step, in UTF-8 bytes.',
  }),
  DEMO_ARCHIVE_MAX_BYTES: byteSize('100mb').meta({
    description: 'Largest demo file (zip) that POST /v1/demos/import and PUT /v1/demos/by-key/{key} accept (docs/demo-format.md).',
  }),
  DEMO_ARCHIVE_MAX_EXPANDED_BYTES: byteSize('250mb').meta({
    description: 'Largest size a demo file may unpack to, checked before anything is unpacked (zip bombs).',
  }),
  RECORDER_EXTENSION_IDS: z
    .string()
    .default('hndijdjkhibnckcfpfhekjgiokmoppli')
    .transform((v) => v.split(',').map((id) => id.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[a-p]{32}$/, 'each must be a 32-letter Chromium extension id (letters a to p)')))
    .meta({
      description:
        'Comma-separated ids of the recorder extension builds allowed to sign in through the built-in `demoshare-recorder` OAuth client.',
    }),
  /** Threads that parse, clean and serialise documents off the event loop (core/worker-pool.ts): one core stays the loop's. */
  DOCUMENT_WORKERS: positiveInt(Math.min(4, Math.max(1, availableParallelism() - 1))),
  /** Document tasks that may wait for a thread; past it, 503 with Retry-After. */
  DOCUMENT_QUEUE: positiveInt(16),
  /** How long one document task may run in its thread; past it the thread is ended and the request is a 413. */
  DOCUMENT_TASK_TIMEOUT: duration('60s'),
  GENERATION_PER_MINUTE: positiveInt(10),
  GENERATION_CONCURRENCY: positiveInt(2),
  GENERATION_WORKERS: positiveInt(2),
  // The generator keeps within it (skipping pages it has no time for); the generation job's deadline too.
  GENERATION_TIMEOUT: duration('60s'),
  // Renewed every third of it by the worker running a generation; lapsed, the generation is taken over.
  GENERATION_LEASE: duration('30s'),
  WEBHOOK_RETRY_DELAYS: durationList('1m,5m,30m,2h,8h').meta({
    description: 'Delays before each retry of a failed webhook delivery (one retry per entry), jittered by ±10%.',
  }),
  WEBHOOK_TIMEOUT: duration('10s'),
  WEBHOOK_DISABLE_AFTER: duration('5d'),
  WEBHOOK_LOG_RETENTION: duration('30d'),
  WEBHOOK_ROTATION_GRACE: duration('24h'),
  WEBHOOK_CONCURRENCY: positiveInt(16),
  WEBHOOK_POLL_INTERVAL: duration('1s'),
  VIEWER_RATE_LIMIT_PER_MINUTE: positiveInt(1200),
  ANALYTICS_EXACT_VIEWERS_UP_TO: z.coerce.number().int().min(0).default(20_000).meta({
    description: 'Unique viewers are exact up to this many views in a range, estimated (HyperLogLog) beyond.',
  }),
  SHARE_PASSWORD_ATTEMPTS: positiveInt(5),
  SHARE_PASSWORD_WINDOW: duration('15m'),
  VIEWER_SESSION_TTL: duration('30d'),
  ACCESS_LOG_RETENTION: duration('90d'),
  /** Views, and the analytics of their days, older than this are deleted daily (viewer-privacy/view-retention.ts). 0s: kept. */
  VIEW_RETENTION: duration('0s'),
  AUDIT_LOG_RETENTION: duration('365d'),
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Demoshare <no-reply@localhost>'),
  CHROMIUM_PATH: z
    .string()
    .optional()
    .transform((value, ctx) => {
      const found = findChromium(value ?? '');
      if (found.error) {
        ctx.addIssue({ code: 'custom', message: found.error });
        return z.NEVER;
      }
      return found.path;
    }),
  /** The ffmpeg that encodes videos and GIFs (src/renders): a name looked up on PATH or a path; checked at start-up. */
  FFMPEG_PATH: z.string().min(1).default('ffmpeg'),
  /** How long one video or GIF render may run before it fails; the job is retried once after a lost worker. */
  RENDER_TIMEOUT: duration('15m'),
  /** Renders one worker process runs at once: each is a Chromium and an ffmpeg. */
  RENDER_CONCURRENCY: positiveInt(1),
  GENERATION_MAX_PAGES: z.coerce.number().int().min(0, 'must be 0 or more').max(20, 'must be 20 or fewer').default(4),
  DNS_SERVERS: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]|[0-9a-fA-F:]+)(:\d{1,5})?$/, 'each must be an IP address, optionally with :port')))
    .meta({ description: 'Comma-separated DNS servers (ip or ip:port) that verify custom domains; empty: the system\'s.' }),
  CUSTOM_DOMAIN_CNAME_TARGET: z
    .string()
    .regex(/^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)*[a-zA-Z0-9-]{1,63}$/, 'must be a host name such as proxy.demoshare.example')
    .optional()
    .meta({ description: 'The host name custom domains CNAME to (shown to admins, checked by verification); default: APP_URL\'s host.' }),
  DOMAIN_RECHECK_INTERVAL: duration('6h').meta({ description: 'How often each verified custom domain\'s DNS record is checked again.' }),
  DOMAIN_RECHECK_GRACE: duration('72h').meta({
    description: 'How long a verified custom domain may fail its re-checks before it stops being served (status failed).',
  }),
  AI_BASE_URL: optionalUrl,
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().optional(),
  AI_TIMEOUT: duration('20s'),
  /** HubSpot's API (operator config: a test or a proxy points it elsewhere); no trailing slash kept. */
  HUBSPOT_API_URL: z
    .url()
    .default('https://api.hubapi.com')
    .transform((v) => v.replace(/\/+$/, '')),
});

/**
 * The settings, with APP_URL defaulting to this machine on the configured port: a first run with
 * `PORT=3100` gets share links and e-mailed links that point at :3100, not at a port nothing listens on.
 *
 * @example
 * ```ts
 * import { configSchema } from './config';
 *
 * const config = configSchema.parse({ PORT: '3100' });
 * config.APP_URL; // 'http://localhost:3100'
 * ```
 */
export const configSchema = settingsSchema.transform((settings) => ({
  ...settings,
  APP_URL: settings.APP_URL ?? `http://localhost:${settings.PORT}`,
  ASSET_STORE: settings.ASSET_STORE ?? defaultAssetStore(settings.DATABASE_URL ? 'postgres' : 'pglite'),
}));

/**
 * The store of assets' bytes when ASSET_STORE is unset: files beside the embedded database, which lives on
 * one machine in DATA_DIR anyway (the database stays small: vacuum, memory, backups of rows); the database
 * itself on PostgreSQL (DATABASE_URL), whose API and worker processes may run on machines that share no folder.
 *
 * @example
 * ```ts
 * import { defaultAssetStore } from './config';
 *
 * defaultAssetStore('pglite'); // 'filesystem'
 * defaultAssetStore('postgres'); // 'database'
 * ```
 */
export function defaultAssetStore(engine: 'pglite' | 'postgres') {
  return engine === 'postgres' ? ('database' as const) : ('filesystem' as const);
}

/** Rules that tie several settings together, checked after each one parsed on its own. */
function crossChecks(config: Config): string[] {
  const problems: string[] = [];
  if (config.SIGNUP === 'domains' && config.SIGNUP_ALLOWED_DOMAINS.length === 0) {
    problems.push('SIGNUP_ALLOWED_DOMAINS: list the e-mail domains that may sign up (e.g. example.com,corp.example) when SIGNUP=domains');
  }
  if (config.SIGNUP !== 'domains' && config.SIGNUP_ALLOWED_DOMAINS.length > 0) {
    problems.push(`SIGNUP_ALLOWED_DOMAINS: only read when SIGNUP=domains (SIGNUP is ${config.SIGNUP}): set SIGNUP=domains, or leave it empty`);
  }
  const ai = [config.AI_BASE_URL, config.AI_API_KEY, config.AI_MODEL];
  if (ai.some(Boolean) && !ai.every(Boolean)) {
    problems.push('AI_BASE_URL, AI_API_KEY, AI_MODEL: set all three to write step text with an AI model, or none of them');
  }
  if (config.VIEW_RETENTION > 0 && config.VIEW_RETENTION <= config.VIEWER_SESSION_TTL) {
    // A live session could still add to a view the retention deletes, or to a day it has emptied.
    problems.push('VIEW_RETENTION: must be longer than VIEWER_SESSION_TTL (30d unless set), or 0s to keep views');
  }
  if (config.MAX_EVENT_LOOP_DELAY > 0 && !config.DATABASE_URL) {
    // PGlite runs every query on the server's own event loop: the delay would measure the database's work.
    problems.push(
      "MAX_EVENT_LOOP_DELAY: load shedding needs DATABASE_URL (PostgreSQL): the embedded database's queries run on the server's own event loop, so their work would read as overload; leave it unset (0s)",
    );
  }
  if (config.DATABASE_READ_URL && !config.DATABASE_URL) {
    problems.push('DATABASE_READ_URL: a read replica needs DATABASE_URL (its primary); the embedded database has none');
  }
  if (config.ASSET_GC_GRACE < 3_600_000) {
    problems.push('ASSET_GC_GRACE: at least 1h, longer than any upload or generation takes from writing a blob to naming it');
  }
  if (config.ASSET_STORE === 's3' && !config.S3_BUCKET) {
    problems.push('S3_BUCKET: name the bucket that holds the assets when ASSET_STORE=s3');
  }
  if (config.ASSET_REDIRECT === 'presigned' && config.ASSET_STORE !== 's3') {
    problems.push(`ASSET_REDIRECT: presigned needs ASSET_STORE=s3 (ASSET_STORE is ${config.ASSET_STORE}): only a bucket signs addresses; set it to off`);
  }
  if (config.ASSET_PRESIGN_TTL < 60_000 || config.ASSET_PRESIGN_TTL > 7 * 86_400_000) {
    problems.push('ASSET_PRESIGN_TTL: between 1m and 7d (S3 refuses presigned addresses valid for longer than 7 days)');
  }
  if (config.ASSET_PUBLIC_URL) {
    if (config.ASSET_STORE === 'database') {
      problems.push('ASSET_PUBLIC_URL: needs ASSET_STORE=filesystem or s3: assets whose bytes are in the database are served by Demoshare only');
    }
    const url = new URL(config.ASSET_PUBLIC_URL);
    if (!/^https?:$/.test(url.protocol) || url.search || url.hash) {
      problems.push('ASSET_PUBLIC_URL: an http(s) base address without query or fragment, such as https://cdn.example.com/demoshare');
    }
  }
  if (!!config.S3_ACCESS_KEY_ID !== !!config.S3_SECRET_ACCESS_KEY) {
    problems.push("S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither to use the SDK's default credentials (environment, instance or task role)");
  }
  return problems;
}

export type Config = z.infer<typeof configSchema>;

/**
 * Every configuration problem at once, one line each: the CLI prints it and exits.
 *
 * @example
 * ```ts
 * import { ConfigError, loadConfig } from './config';
 *
 * try {
 *   loadConfig({ PORT: 'eighty' });
 * } catch (error) {
 *   if (error instanceof ConfigError) console.error(error.message); // Invalid configuration:\n  - PORT: …
 * }
 * ```
 */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates the configuration, reporting every problem at once, one line each.
 *
 * @example
 * ```ts
 * import { loadConfig } from './config';
 *
 * const config = loadConfig(); // process.env
 * loadConfig({ CHROMIUM_PATH: 'none', DATABASE_URL: 'postgres://demoshare@db:5432/demoshare' }).CHROMIUM_PATH; // null
 * ```
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(input);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const problems = crossChecks(result.data);
  if (problems.length > 0) throw new ConfigError(problems);
  return result.data;
}

/**
 * The configuration for tests: defaults, with overrides.
 *
 * @example
 * ```ts
 * import { testConfig } from './config';
 *
 * const config = testConfig({ GENERATION_MAX_PAGES: 0 });
 * ```
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  // Silent: a test reads what it checks from responses and the database, and thousands of request lines
  // would bury a failure's output.
  return { ...configSchema.parse({}), LOG_LEVEL: 'silent', ...overrides };
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * A warning when APP_URL names this machine on a port the server does not listen on: share links and
 * e-mailed links would then lead nowhere. An APP_URL with a public name is a proxy's address and is
 * trusted as given.
 *
 * @example
 * ```ts
 * import { appUrlWarning } from './config';
 *
 * appUrlWarning({ APP_URL: 'http://localhost:3000' }, 3100); // a warning: links would point at :3000
 * appUrlWarning({ APP_URL: 'https://demos.example.com' }, 3100); // undefined
 * ```
 */
export function appUrlWarning(config: Pick<Config, 'APP_URL'>, listeningPort: number): string | undefined {
  const url = new URL(config.APP_URL);
  if (!LOOPBACK.test(url.hostname)) return undefined;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (port === listeningPort) return undefined;
  return (
    `Warning: APP_URL is ${config.APP_URL}, but this server listens on port ${listeningPort}: share links and ` +
    `e-mailed links will not reach it. Set APP_URL to the address people open (e.g. http://localhost:${listeningPort}).`
  );
}
