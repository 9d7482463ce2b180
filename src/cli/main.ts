// The `demoshare` command line: parses a command and runs it on the configured database and services.
import { parseArgs } from 'node:util';
import { buildApp } from '../app';
import { normaliseEmail } from '../accounts/email-address';
import { parseScopes } from '../auth/permissions';
import { appUrlWarning, ConfigError, loadConfig, type Config } from '../config';
import { AppError } from '../core/errors';
import { resolveSecretKey } from '../core/secret-key';
import { DataDirLockedError } from '../db/data-dir-lock';
import { JobQueue } from '../jobs/queue';
import { openConfiguredDatabase, RuntimeError, startRuntime, type ProcessRole } from '../runtime';
import { systemActor } from '../audit/actor';
import { BackupError, backupEmbedded, restoreEmbedded } from '../backup/embedded-backup';
import { compactEmbedded } from '../backup/embedded-compact';
import { migrateToPostgres } from '../backup/migrate-to-postgres';
import { ASSETS_USAGE, assetsCommand, AssetsUsageError } from './assets-command';
import { demosCommand } from './demos-command';

const USAGE = `Usage: demoshare <command> [options]

Commands:
  start                 API, web app and workers in one process (the default)
  serve                 API and web app only (needs DATABASE_URL; run workers beside it)
  worker                background workers only (needs DATABASE_URL)
  migrate               apply database migrations and exit
  users create --email E --password P [--name N] [--workspace NAME]
                        create a user with a workspace of their own, as its admin
  keys create --email E --name N --scopes "demos:read demos:write ..."|all [--workspace NAME]
                        create an API key for that user; prints only the key
  backup --to FILE      archive the embedded database (DATA_DIR), its secret key and the blobs of
                        DATA_DIR/blobs its rows name into FILE; the server must be stopped (on PostgreSQL
                        it prints the pg_dump commands instead; with ASSET_STORE=s3 the bucket is not copied)
  restore --from FILE [--force]
                        check FILE, then restore it (and its blobs) into DATA_DIR (--force replaces what is there)
  compact               rewrite the embedded database's tables (VACUUM FULL) so the space deleted rows held
                        goes back to the disk; the server must be stopped
  migrate-to-postgres --database-url URL
                        copy the embedded database in DATA_DIR into an empty PostgreSQL database
  assets move --to database|filesystem|s3 [--from filesystem|s3] [--dry-run] [--limit N] [--delete-source]
                        move existing assets' bytes between their database rows and a blob store, resumable,
                        each checked against its SHA-256, counts compared (docs/object-storage.md)
  oauth-apps verify|unverify <client_id>
                        mark an OAuth app as verified by this instance's operator (shown on the consent page)
  demos export|import|push|check ...
                        demo files between a folder and an instance at --url/DEMOSHARE_URL with
                        --token/DEMOSHARE_TOKEN (demoshare demos help; docs/demo-format.md)
  mcp                   the MCP tools over stdio for an AI assistant, calling the instance at
                        DEMOSHARE_URL with DEMOSHARE_API_KEY (docs/mcp.md)
  help                  this text

Configuration comes from environment variables: see README.md.`;

type Out = { stdout: (s: string) => void; stderr: (s: string) => void };
const defaultOut: Out = {
  stdout: (s) => process.stdout.write(`${s}\n`),
  stderr: (s) => process.stderr.write(`${s}\n`),
};

class UsageError extends Error {}

/** Runs one CLI command and returns the process exit code. */
export async function main(argv: string[], env = process.env, out: Out = defaultOut): Promise<number> {
  const [command = 'start', ...rest] = argv;
  try {
    switch (command) {
      case 'start':
      case 'serve':
      case 'worker':
        return await run(loadConfig(env), ({ start: 'all', serve: 'api', worker: 'worker' } as const)[command], out);
      case 'migrate': {
        const database = await openConfiguredDatabase(loadConfig(env));
        await database.close();
        out.stderr('Migrations applied.');
        return 0;
      }
      case 'users':
        return await usersCommand(rest, loadConfig(env), out);
      case 'keys':
        return await keysCommand(rest, loadConfig(env), out);
      case 'oauth-apps':
        return await oauthAppsCommand(rest, loadConfig(env), out);
      case 'backup':
        return await backupCommand(rest, loadConfig(env), out);
      case 'restore':
        return await restoreCommand(rest, loadConfig(env), out);
      case 'compact':
        return await compactCommand(rest, loadConfig(env), out);
      case 'migrate-to-postgres':
        return await migrateToPostgresCommand(rest, loadConfig(env), out);
      case 'assets':
        return await assetsCommand(rest, loadConfig(env), out);
      case 'demos':
        return await demosCommand(rest, env, out);
      case 'mcp':
        return await (await import('../mcp/mcp-stdio')).runMcpStdio(env, out.stderr);
      case 'help':
      case '--help':
      case '-h':
        out.stdout(USAGE);
        return 0;
      default:
        throw new UsageError(`Unknown command "${command}".`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      out.stderr(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof AssetsUsageError) {
      out.stderr(error.message === ASSETS_USAGE ? ASSETS_USAGE : `${error.message}\n\n${ASSETS_USAGE}`);
      return 2;
    }
    if (
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof RuntimeError ||
      error instanceof BackupError
    ) {
      out.stderr(error.message);
      return 1;
    }
    if (error instanceof AppError) {
      out.stderr(`Error: ${error.message}`);
      return 1;
    }
    out.stderr(`Error: ${(error as Error).stack ?? String(error)}`);
    return 1;
  }
}

async function run(config: Config, role: ProcessRole, out: Out): Promise<number> {
  // A first start migrates a new database before it listens: each stage is said as it begins.
  const runtime = await startRuntime(config, role, (line) => out.stderr(line));
  // Handled before the line below says the process is up: a supervisor (or a test) that stops it as soon as it
  // reads that line found, on a loaded machine, no handler yet, and the process died of the signal mid-start.
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      out.stderr(`${signal} received: finishing in-flight work...`);
      runtime.close().then(resolve, (error) => {
        out.stderr(`Error while stopping: ${(error as Error).message}`);
        resolve();
      });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  const what = { all: 'Demoshare', api: 'Demoshare API', worker: 'Demoshare worker' }[role];
  out.stderr(
    runtime.address
      ? `${what} listening on ${runtime.address} (open ${config.APP_URL})`
      : `${what} running${runtime.workerAddress ? `; health and metrics on ${runtime.workerAddress}` : ''}`,
  );
  const bound = runtime.app.server.address();
  const warning = runtime.address && bound && typeof bound === 'object' ? appUrlWarning(config, bound.port) : undefined;
  if (warning) out.stderr(warning);
  await stopped;
  return 0;
}

function options(args: string[], spec: Record<string, { type: 'string' | 'boolean' }>) {
  try {
    return parseArgs({ args, options: spec, allowPositionals: false, strict: true }).values as Record<
      string,
      string | undefined
    >;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (!value) throw new UsageError(`--${name} is required.`);
  return value;
}

/** The app's services on the configured database, for one command, without listening. */
async function withServices<T>(config: Config, fn: (ctx: Awaited<ReturnType<typeof buildApp>>['ctx']) => Promise<T>) {
  const database = await openConfiguredDatabase(config);
  const queue = new JobQueue(database, { work: false });
  try {
    const { app, ctx } = await buildApp({
      config: { ...config, LOG_LEVEL: 'silent' },
      database,
      queue,
      secretKey: resolveSecretKey(config.SECRET_KEY, config.DATA_DIR),
    });
    try {
      return await fn(ctx);
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
  }
}

async function usersCommand(args: string[], config: Config, out: Out): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('Usage: demoshare users create --email E --password P [--workspace NAME]');
  const values = options(rest, {
    email: { type: 'string' },
    password: { type: 'string' },
    name: { type: 'string' },
    workspace: { type: 'string' },
  });
  const email = required(values, 'email');
  const password = required(values, 'password');
  if (password.length < 10) throw new UsageError('--password must be at least 10 characters.');
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new UsageError(`"${email}" is not an e-mail address.`);
  const created = await withServices(config, (ctx) =>
    ctx.services.accounts.accounts.createAccount({
      email,
      password,
      name: values.name,
      workspaceName: values.workspace,
      verifiedByOperator: true,
    }),
  );
  out.stderr(`Created ${created.user.email} (${created.user.id}), admin of "${created.workspace.name}" (${created.workspace.id}).`);
  return 0;
}

async function keysCommand(args: string[], config: Config, out: Out): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('Usage: demoshare keys create --email E --name N --scopes "..."|all');
  const values = options(rest, {
    email: { type: 'string' },
    name: { type: 'string' },
    scopes: { type: 'string' },
    workspace: { type: 'string' },
  });
  const email = normaliseEmail(required(values, 'email'));
  const name = required(values, 'name');
  const scopes = parseScopes(required(values, 'scopes'));
  if (scopes.length === 0) throw new UsageError('--scopes needs at least one scope, or "all".');
  const key = await withServices(config, async (ctx) => {
    const rows = await ctx.services.accounts.reader.membershipsByEmail(email);
    if (rows.length === 0) throw new AppError('not_found', `No active user with e-mail ${email}`);
    const chosen = values.workspace
      ? rows.find((r) => r.workspace.name === values.workspace || r.workspace.id === values.workspace)
      : rows[0];
    if (!chosen) {
      throw new AppError(
        'not_found',
        `${email} is not a member of workspace "${values.workspace}"; theirs: ${rows.map((r) => r.workspace.name).join(', ')}`,
      );
    }
    // Made on the server by its operator: the workspace's audit log shows it as the system's doing.
    const issued = await ctx.services.apiKeys.apiKeys.issueRecorded(chosen.workspace.id, chosen.member.id, { name, scopes }, systemActor());
    return issued.key;
  });
  out.stdout(key);
  return 0;
}

async function oauthAppsCommand(args: string[], config: Config, out: Out): Promise<number> {
  const [sub, clientId, ...extra] = args;
  if ((sub !== 'verify' && sub !== 'unverify') || !clientId || extra.length > 0) {
    throw new UsageError('Usage: demoshare oauth-apps verify|unverify <client_id>');
  }
  const app = await withServices(config, (ctx) => ctx.services.oauth.oauthApps.setVerified(clientId, sub === 'verify'));
  out.stderr(`${app.name} (${app.id}) is ${app.verified ? 'verified' : 'no longer verified'}.`);
  return 0;
}

const PG_DUMP_GUIDANCE = `DATABASE_URL is set: back up PostgreSQL with its own tools, which work while Demoshare runs:
  pg_dump --format=custom --file demoshare.dump "$DATABASE_URL"
and restore into a new, empty database with:
  pg_restore --no-owner --exit-on-error --dbname "$NEW_DATABASE_URL" demoshare.dump
Keep SECRET_KEY with the dump: without it API keys, sessions and webhook secrets cannot be read.
See docs/operations.md ("Backups and restore"). Nothing was written.`;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function backupCommand(args: string[], config: Config, out: Out): Promise<number> {
  const values = options(args, { to: { type: 'string' } });
  const file = required(values, 'to');
  if (config.DATABASE_URL) {
    out.stderr(PG_DUMP_GUIDANCE);
    return 1;
  }
  const { manifest, bytes } = await backupEmbedded({
    dataDir: config.DATA_DIR,
    secretKey: config.SECRET_KEY,
    file,
    assetStore: config.ASSET_STORE,
  });
  const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
  out.stderr(
    `Backed up ${rows} rows in ${Object.keys(manifest.tables).length} tables (migration ${manifest.migrations.latest}) ` +
      `to ${file} (${megabytes(bytes)}).`,
  );
  if (manifest.blobs?.in_archive) {
    out.stderr(`With them ${manifest.blobs.count} blobs of ${config.DATA_DIR}/blobs (${megabytes(manifest.blobs.bytes ?? 0)}), each checked against its SHA-256.`);
  } else if (manifest.blobs?.store === 's3') {
    out.stderr(
      `The database names ${manifest.blobs.count} blobs in the S3 bucket ${config.S3_BUCKET}: they are NOT in this backup (their keys are listed ` +
        'in its manifest). Back the bucket up with its own versioning or replication (docs/object-storage.md).',
    );
  }
  if (manifest.secret_key.source === 'environment') {
    out.stderr('SECRET_KEY comes from the environment and is not in the backup: keep it with the backup, restore needs it.');
  }
  return 0;
}

async function compactCommand(args: string[], config: Config, out: Out): Promise<number> {
  options(args, {});
  if (config.DATABASE_URL) {
    out.stderr(
      'compact is for the embedded database (DATA_DIR). PostgreSQL reuses deleted rows\' space through autovacuum; ' +
        'to return it to the disk, run VACUUM FULL on the tables concerned (it locks each table while it runs) or pg_repack.',
    );
    return 1;
  }
  const { tables, total, ms } = await compactEmbedded({ dataDir: config.DATA_DIR });
  out.stderr(
    `Compacted the embedded database in ${config.DATA_DIR} in ${(ms / 1000).toFixed(1)} s: tables and indexes ` +
      `${megabytes(tables.before)} → ${megabytes(tables.after)}; the whole data directory, WAL included, ` +
      `${megabytes(total.before)} → ${megabytes(total.after)}. Every table's row count is unchanged.`,
  );
  return 0;
}

async function restoreCommand(args: string[], config: Config, out: Out): Promise<number> {
  const values = options(args, { from: { type: 'string' }, force: { type: 'boolean' } });
  const file = required(values, 'from');
  if (config.DATABASE_URL) {
    throw new UsageError('restore is for the embedded database (DATA_DIR): unset DATABASE_URL, or use pg_restore for PostgreSQL.');
  }
  const result = await restoreEmbedded({ dataDir: config.DATA_DIR, secretKey: config.SECRET_KEY, file, force: (values as Record<string, unknown>).force === true });
  out.stderr(result.comparison);
  out.stderr(`Restored ${file} (made ${result.manifest.created_at}, Demoshare ${result.manifest.app_version}) into ${config.DATA_DIR}.`);
  if (result.needsSecretKey) out.stderr('Start the server with the same SECRET_KEY: the backup relies on it.');
  for (const note of result.notes) out.stderr(note);
  return 0;
}

async function migrateToPostgresCommand(args: string[], config: Config, out: Out): Promise<number> {
  const values = options(args, { 'database-url': { type: 'string' } });
  const url = required(values, 'database-url');
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError('--database-url must be a postgres:// connection string.');
  if (config.DATABASE_URL) {
    throw new UsageError('migrate-to-postgres reads the embedded database in DATA_DIR: unset DATABASE_URL for this command.');
  }
  out.stderr(`Copying the embedded database in ${config.DATA_DIR} into ${redactUrl(url)}...`);
  const result = await migrateToPostgres({ dataDir: config.DATA_DIR, url, assetStore: config.ASSET_STORE, log: out.stderr });
  out.stderr(result.comparison);
  out.stderr(
    `Copied ${result.rows} rows; every table's count matches. Start Demoshare with DATABASE_URL set to the new database ` +
      `(and SECRET_KEY set to the contents of ${config.DATA_DIR}/secret.key, unless it is set already).`,
  );
  if (result.blobs.count > 0 && result.blobs.store === 'filesystem') {
    out.stderr(
      `The database names ${result.blobs.count} blobs, all present in ${config.DATA_DIR}/blobs: the new instance keeps reading them ` +
        'there, so start it with ASSET_STORE=filesystem and the same DATA_DIR (every process, on this machine).',
    );
  } else if (result.blobs.count > 0) {
    out.stderr(`The database names ${result.blobs.count} blobs in the S3 bucket: start the new instance with the same ASSET_STORE=s3 and S3_* settings.`);
  }
  return 0;
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the target database';
  }
}
