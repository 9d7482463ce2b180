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
import { createGenerator, generatorDepsFromConfig } from './generation';
import { JobQueue } from './jobs/queue';
import { createSmtpMailer } from './mail/mailer';

export type ProcessRole = 'all' | 'api' | 'worker';

export interface Runtime {
  app: FastifyInstance;
  ctx: AppContext;
  /** The listening address, when the role serves HTTP. */
  address?: string;
  /** Stops accepting, lets in-flight requests and jobs finish, then closes the database. */
  close(): Promise<void>;
}

export class RuntimeError extends Error {}

/** Opens the database the configuration names (PGlite in DATA_DIR, or PostgreSQL) and migrates it. */
export async function openConfiguredDatabase(config: Config): Promise<Database> {
  const database = await openDatabase({
    url: config.DATABASE_URL,
    dataDir: config.DATABASE_URL ? undefined : config.DATA_DIR,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  try {
    await database.migrate();
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/** Starts one process of the service: API and web app, workers, or both. */
export async function startRuntime(config: Config, role: ProcessRole): Promise<Runtime> {
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
  const database = await openConfiguredDatabase(config);
  const redis = config.REDIS_URL
    ? await connectRedis(config.REDIS_URL, log).catch(async (error: Error) => {
        await database.close();
        throw new RuntimeError(error.message);
      })
    : undefined;
  let bus: Bus;
  if (redis) bus = await createRedisBus(redis);
  else if (database.kind === 'postgres') bus = await createPostgresBus(database);
  else bus = createLocalBus();
  const mailer = config.SMTP_URL ? await createSmtpMailer(config.SMTP_URL, config.MAIL_FROM) : undefined;

  const queue = new JobQueue(database, { work: role !== 'api' });
  await queue.start((error) => log.error({ err: error }, 'job queue error'));
  // Generation has its own guarded client: it outlives the app during shutdown until its jobs end.
  const generationNet = new SafeFetch(AddressPolicy.fromList(config.ALLOW_PRIVATE_NETWORK_CIDRS));
  const generator = createGenerator(generatorDepsFromConfig(config, generationNet, log.child({ module: 'generation' })));
  const { app, ctx } = await buildApp({
    config,
    database,
    secretKey,
    queue,
    bus,
    redis,
    mailer,
    generator: (options) => generator.generate(options),
  });
  await registerJobs(ctx);

  let address: string | undefined;
  if (role !== 'worker') {
    address = await app.listen({ port: config.PORT, host: config.HOST });
  } else {
    await app.ready();
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await app.close();
      await queue.stop();
      await generator.close();
      await generationNet.close();
      await bus.close();
      await mailer?.close();
      redis?.disconnect();
      await database.close();
    })());
  return { app, ctx, address, close };
}
