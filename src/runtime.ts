// One running process of the service (API, workers or both): the only place that listens, starts workers and handles shutdown.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp, registerJobs } from './app';
import type { Config } from './config';
import type { AppContext } from './context';
import { type Bus, createLocalBus, createPostgresBus, createRedisBus } from './core/bus';
import { connectRedis } from './core/redis';
import { resolveSecretKey } from './core/secret-key';
import { AddressPolicy } from './core/net/address-policy';
import { SafeFetch } from './core/net/safe-fetch';
import { type Database, openDatabase } from './db/client';
import { readEmbeddedSeed } from './db/embedded-seed';
import { pendingMigrations } from './db/pending-migrations';
import { countBlobHeld } from './demos/asset-moves.repo';
import { createDocumentPool } from './document-tasks';
import { EmbeddedMaintenance } from './db/embedded-maintenance';
import { createGenerator, generatorDepsFromConfig } from './generation';
import { buildWorkerServer } from './health/health.worker-server';
import { JobQueue } from './jobs/queue';
import { createSmtpMailer } from './mail/mailer';

export type ProcessRole = 'all' | 'api' | 'worker';

export interface Runtime {
  app: FastifyInstance;
  ctx: AppContext;
  /** The listening address, when the role serves HTTP. */
  address?: string;
  /** A worker's health and metrics address (WORKER_PORT), when it has one. */
  workerAddress?: string;
  /** Stops accepting, lets in-flight requests and jobs finish, then closes the database. */
  close(): Promise<void>;
}

/**
 * A start-up failure with a message meant for the operator (a data directory in use, a database out of
 * reach): the CLI prints it alone, without a stack.
 *
 * @example
 * ```ts
 * import { RuntimeError } from './runtime';
 *
 * const forOperator = (error: unknown) => (error instanceof RuntimeError ? error.message : String(error));
 * ```
 */
export class RuntimeError extends Error {}

/** A port taken, forbidden or an address not on this machine: the operator's one line (RuntimeError), not a stack. */
const cannotListen = (setting: string, host: string, port: number, advice: string) => (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EADDRINUSE' && error.code !== 'EACCES' && error.code !== 'EADDRNOTAVAIL') throw error;
  throw new RuntimeError(`${setting}: cannot listen on ${host}:${port} (${error.code}): ${advice}`);
};

/** Where start-up says what it is doing, one line per stage (the CLI prints them; tests pass nothing). */
export type StartProgress = (line: string) => void;

/**
 * Opens the database the configuration names (PGlite in DATA_DIR, or PostgreSQL) and migrates it.
 *
 * @example
 * ```ts
 * import { loadConfig } from './config';
 * import { openConfiguredDatabase } from './runtime';
 *
 * const database = await openConfiguredDatabase(loadConfig()); // migrated, ready for queries
 * await database.close();
 * ```
 */
export async function openConfiguredDatabase(config: Config, progress: StartProgress = () => {}): Promise<Database> {
  // A first embedded start copies the cluster built at install, migrations applied, instead of initdb and
  // every migration (about 30 s of a first start: bench/startup.ts).
  const seed = !config.DATABASE_URL && !existsSync(join(config.DATA_DIR, 'pgdata')) ? readEmbeddedSeed() : undefined;
  progress(
    config.DATABASE_URL
      ? 'Connecting to PostgreSQL…'
      : seed
        ? `Creating the embedded database in ${config.DATA_DIR} from the one built at install…`
        : `Starting the embedded database in ${config.DATA_DIR}…`,
  );
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
    acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT || undefined,
    loadDataDir: seed,
  });
  try {
    const pending = await pendingMigrations(database);
    if (pending !== 0) progress(pending ? `Applying ${pending} database migration${pending === 1 ? '' : 's'}…` : 'Applying database migrations…');
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * Refuses to start with ASSET_STORE=database while rows name blobs: every one of those assets would answer
 * 503. It happens when a variable is forgotten (an embedded instance moved by migrate-to-postgres started
 * without ASSET_STORE=filesystem), and a forgotten variable must not become an outage.
 */
async function refuseStrandedBlobs(config: Config, database: Database) {
  if (config.ASSET_STORE !== 'database') return;
  const held = await countBlobHeld(database.db);
  if (held === 0) return;
  throw new RuntimeError(
    `${held} asset${held === 1 ? ' has its' : 's have their'} bytes in a blob store, but ASSET_STORE is database, so ${held === 1 ? 'it' : 'they'} could not be served. ` +
      'Start every process with ASSET_STORE naming that store: filesystem (DATA_DIR/blobs, e.g. an embedded instance moved by migrate-to-postgres) or s3 with its S3_* settings. ' +
      'To keep the bytes in the database instead, first run "demoshare assets move --to database --from filesystem|s3" (docs/object-storage.md).',
  );
}

/**
 * Starts one process of the service: API and web app, workers, or both.
 *
 * @example
 * ```ts
 * import { loadConfig } from './config';
 * import { startRuntime } from './runtime';
 *
 * const runtime = await startRuntime(loadConfig(), 'all'); // or 'api' / 'worker' in a cluster
 * process.once('SIGTERM', () => void runtime.close());
 * ```
 */
export async function startRuntime(config: Config, role: ProcessRole, progress: StartProgress = () => {}): Promise<Runtime> {
  if (role !== 'all' && !config.DATABASE_URL) {
    throw new RuntimeError(
      `"demoshare ${role === 'api' ? 'serve' : 'worker'}" runs beside other processes and needs a shared PostgreSQL ` +
        'database: set DATABASE_URL, or use "demoshare start" to run everything in one process on the embedded database.',
    );
  }
  const log = pino({ level: config.LOG_LEVEL });
  if (config.DATABASE_URL && !config.SECRET_KEY) {
    log.warn('SECRET_KEY is not set: using one kept in DATA_DIR. Every process must share it: set SECRET_KEY.');
  }
  const secretKey = resolveSecretKey(config.SECRET_KEY, config.DATA_DIR);
  const database = await openConfiguredDatabase(config, progress);
  // Everything opened so far, closed in reverse by close(), and by a start that fails half-way: a process
  // that cannot start must exit, not hang on a pool or a timer nobody will close.
  const opened: Array<() => unknown> = [() => database.close()];
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      let failure: unknown;
      for (const undo of opened.reverse()) {
        await Promise.resolve()
          .then(undo)
          .catch((error: unknown) => {
            failure ??= error;
          });
      }
      if (failure) throw failure;
    })());

  try {
    await refuseStrandedBlobs(config, database);
    const redis = config.REDIS_URL
      ? await connectRedis(config.REDIS_URL, log).catch((error: Error) => {
          throw new RuntimeError(error.message);
        })
      : undefined;
    if (redis) opened.push(() => redis.disconnect());
    let bus: Bus;
    if (redis) bus = await createRedisBus(redis);
    else if (database.kind === 'postgres') bus = await createPostgresBus(database);
    else bus = createLocalBus();
    opened.push(() => bus.close());
    const mailer = config.SMTP_URL ? await createSmtpMailer(config.SMTP_URL, config.MAIL_FROM) : undefined;
    if (mailer) opened.push(() => mailer.close());

    // Generation has its own guarded client: it outlives the app during shutdown until its jobs end. So do
    // the document workers, which the app's requests and generation share (one pool per process).
    const generationNet = new SafeFetch(AddressPolicy.fromList(config.ALLOW_PRIVATE_NETWORK_CIDRS));
    opened.push(() => generationNet.close());
    const documents = createDocumentPool(config);
    opened.push(() => documents.close());
    const generator = createGenerator({ ...generatorDepsFromConfig(config, generationNet, log.child({ module: 'generation' })), documents });
    opened.push(() => generator.close());
    const queue = new JobQueue(database, { work: role !== 'api' });
    opened.push(() => queue.stop());
    progress('Starting the job queue…');
    await queue.start((error) => log.error({ err: error }, 'job queue error'));
    const { app, ctx } = await buildApp({
      // A worker answers no requests, so it has none to shed: its loop is busy with jobs by design.
      config: role === 'worker' ? { ...config, MAX_EVENT_LOOP_DELAY: 0 } : config,
      database,
      secretKey,
      queue,
      bus,
      redis,
      mailer,
      generator: (options) => generator.generate(options),
      documents,
    });
    opened.push(() => app.close());
    await registerJobs(ctx);

    let address: string | undefined;
    let workerAddress: string | undefined;
    progress(role === 'worker' ? 'Starting the workers…' : 'Starting the web server…');
    if (role !== 'worker') {
      address = await app
        .listen({ port: config.PORT, host: config.HOST })
        .catch(cannotListen('PORT', config.HOST, config.PORT, 'stop the other server on it, or choose another PORT.'));
      if (config.WORKER_PORT) log.info(`WORKER_PORT is for "demoshare worker": this process serves /healthz, /readyz and /metrics on PORT (${config.PORT})`);
    } else {
      await app.ready();
      if (config.WORKER_PORT) {
        // Opened last, closed first: once the worker is stopping it is no longer ready, whatever jobs it drains.
        progress('Starting the health and metrics server…');
        const server = await buildWorkerServer(ctx);
        opened.push(() => server.close());
        workerAddress = await server
          .listen({ port: config.WORKER_PORT, host: config.HOST })
          .catch(cannotListen('WORKER_PORT', config.HOST, config.WORKER_PORT, 'give each worker on a machine a port of its own, or leave WORKER_PORT unset.'));
      }
    }
    // PostgreSQL's autovacuum looks after a server; nothing looks after the embedded database but this.
    if (database.kind === 'pglite' && config.EMBEDDED_MAINTENANCE_INTERVAL > 0) {
      const maintenance = new EmbeddedMaintenance(database, config.EMBEDDED_MAINTENANCE_INTERVAL, log.child({ module: 'maintenance' }));
      opened.push(() => maintenance.stop());
      maintenance.start();
    }
    return { app, ctx, address, workerAddress, close };
  } catch (error) {
    await close().catch(() => {});
    throw error;
  }
}
