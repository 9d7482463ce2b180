// The infrastructure one app shares with its modules (database, clock, bus, caches, limits, mail), built once.
import type { FastifyBaseLogger } from 'fastify';
import { CredentialCache } from './auth/credential-cache';
import { assetStoreOf } from './asset-store';
import type { AppDeps, Kernel } from './context';
import { createLocalBus } from './core/bus';
import { Changes } from './core/changes';
import { systemClock } from './core/clock';
import { deriveKey } from './core/crypto';
import { AddressPolicy } from './core/net/address-policy';
import { SafeFetch } from './core/net/safe-fetch';
import { RateLimits } from './core/rate-limit';
import { unavailableGenerator } from './demos/demos.generator';
import { OutboxConsumers } from './events/outbox';
import { primaryOnly, replicaRouting } from './db/read-replica';
import { PublicOrigins } from './core/public-origins';
import { createDocumentPool } from './document-tasks';
import { createMailQueue } from './mail/mail-queue';
import { createLogMailer } from './mail/mailer';

/**
 * The infrastructure of one app, from its dependencies: what every module may use.
 *
 * @example
 * ```ts
 * import type { FastifyBaseLogger } from 'fastify';
 * import type { AppDeps } from './context';
 * import { createKernel } from './kernel';
 *
 * declare const deps: AppDeps, log: FastifyBaseLogger;
 * const kernel = createKernel(deps, log); // what buildApp hands each module's create()
 * ```
 */
export function createKernel(deps: AppDeps, log: FastifyBaseLogger): Kernel {
  const bus = deps.bus ?? createLocalBus();
  const sealing = deriveKey(deps.secretKey, 'sealing');
  const clock = deps.clock ?? systemClock;
  const { config, database } = deps;
  const changes = new Changes(bus, (error) => log.warn({ err: error }, 'a change was not announced to other processes'));
  const reads =
    config.DATABASE_READ_URL && database.pool
      ? replicaRouting({
          primary: database.db,
          primaryPool: database.pool,
          replicaUrl: config.DATABASE_READ_URL,
          poolSize: config.DATABASE_POOL_SIZE,
          maxLagMs: config.DATABASE_READ_MAX_LAG,
          probeIntervalMs: config.DATABASE_READ_PROBE_INTERVAL,
          clock,
          bus,
          changes,
          onError: (error) => log.warn({ err: error }, 'the read replica failed or could not be measured; reading the primary'),
        })
      : primaryOnly(database.db);
  return {
    config: deps.config,
    database: deps.database,
    queue: deps.queue,
    clock,
    bus,
    reads,
    changes,
    mailer: deps.mailer ?? createLogMailer(log),
    mailQueue: createMailQueue(deps.queue, sealing),
    credentials: new CredentialCache(changes),
    secrets: {
      keyDigest: deriveKey(deps.secretKey, 'api-key-digest'),
      sealing,
    },
    net: new SafeFetch(AddressPolicy.fromList(deps.config.ALLOW_PRIVATE_NETWORK_CIDRS)),
    documents: deps.documents ?? createDocumentPool(deps.config),
    rateLimits: new RateLimits(deps.redis),
    outbox: new OutboxConsumers(),
    origins: new PublicOrigins(deps.config.APP_URL),
    generator: deps.generator ?? unavailableGenerator,
    assetStore: deps.assetStore === undefined ? assetStoreOf(config) : (deps.assetStore ?? undefined),
    log,
  };
}
