// A PostgreSQL primary and a streaming standby of it, made for one test on this machine (initdb, pg_basebackup -R,
// pg_ctl) and removed after it. The server binaries run as the `postgres` user: PostgreSQL refuses to run as root.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port';

export interface ReplicaPair {
  primaryUrl: string;
  replicaUrl: string;
  /** Runs SQL on the standby (pause or resume its replay), answering its rows. */
  onReplica<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<R[]>;
  /** Stops the standby at once (as a crash would), for the rest of the pair's life. */
  stopReplica(): void;
  stop(): Promise<void>;
}

function binDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'pg_basebackup')));
  versions.sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

/** Why a pair cannot be made here, or undefined when it can. */
export function replicaUnavailable(): string | undefined {
  if (!binDir()) return 'PostgreSQL server binaries (initdb, pg_basebackup) are not installed';
  if (userInfo().uid !== 0 && userInfo().username !== 'postgres') return 'the tests run neither as root nor as postgres';
  try {
    execFileSync('id', ['postgres'], { stdio: 'ignore' });
  } catch {
    return 'there is no postgres user to run the servers as';
  }
  return undefined;
}

function asPostgres(bin: string, args: string[]) {
  const command = path.join(binDir()!, bin);
  if (userInfo().username === 'postgres') execFileSync(command, args, { stdio: 'pipe' });
  else execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
}

/**
 * Starts a primary (wal_level replica, replication allowed from 127.0.0.1) and a hot standby streaming from it,
 * each on a free port, with a database `demoshare` on the primary (replicated like everything else).
 */
export async function startReplicaPair(): Promise<ReplicaPair> {
  const root = mkdtempSync(path.join(tmpdir(), 'demoshare-replica-'));
  const owner = () => {
    if (userInfo().uid === 0) execFileSync('chown', ['-R', 'postgres:postgres', root]);
  };
  owner();
  const primaryDir = path.join(root, 'primary');
  const standbyDir = path.join(root, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const started: string[] = [];
  const halt = (dir: string) => {
    try {
      asPostgres('pg_ctl', ['-D', dir, '-m', 'immediate', 'stop']);
    } catch {
      // Already down.
    }
  };
  const stop = async () => {
    for (const dir of started.reverse()) halt(dir);
    rmSync(root, { recursive: true, force: true });
  };
  try {
    asPostgres('initdb', ['-D', primaryDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      `\nlisten_addresses = '127.0.0.1'\nport = ${primaryPort}\nunix_socket_directories = '${root}'\nwal_level = replica\nmax_wal_senders = 5\nhot_standby = on\nfsync = off\n`,
    );
    writeFileSync(
      path.join(primaryDir, 'pg_hba.conf'),
      'local all all trust\nhost all all 127.0.0.1/32 trust\nhost replication all 127.0.0.1/32 trust\n',
    );
    owner();
    asPostgres('pg_ctl', ['-D', primaryDir, '-l', path.join(root, 'primary.log'), '-w', 'start']);
    started.push(primaryDir);
    const admin = new pg.Client({ host: '127.0.0.1', port: primaryPort, user: 'postgres', database: 'postgres' });
    await admin.connect();
    await admin.query('create database demoshare');
    await admin.end();
    asPostgres('pg_basebackup', ['-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', standbyDir, '-R', '-X', 'stream', '--checkpoint=fast', '--no-sync']);
    appendFileSync(path.join(standbyDir, 'postgresql.conf'), `\nport = ${standbyPort}\n`);
    owner();
    asPostgres('pg_ctl', ['-D', standbyDir, '-l', path.join(root, 'standby.log'), '-w', 'start']);
    started.push(standbyDir);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/demoshare`,
    replicaUrl: `postgres://postgres@127.0.0.1:${standbyPort}/demoshare`,
    async onReplica<R extends Record<string, unknown>>(sql: string, values?: unknown[]) {
      const client = new pg.Client({ host: '127.0.0.1', port: standbyPort, user: 'postgres', database: 'demoshare' });
      await client.connect();
      try {
        return (await client.query<R>(sql, values)).rows;
      } finally {
        await client.end();
      }
    },
    stopReplica() {
      halt(standbyDir);
      started.splice(started.indexOf(standbyDir), 1);
    },
    stop,
  };
}
