// Durable jobs on pg-boss, sent inside the caller's transaction so that a job exists exactly when its data was committed.
import { type SQL, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type { Database, Executor } from '../db/client';

/** pg-boss's `db` for one call: its statement ($1, $2… placeholders) runs in the caller's transaction. */
function transactionDb(tx: Executor): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const chunks: SQL[] = text
        .split(/\$(\d+)/)
        .map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${sql.param(values[Number(part) - 1] ?? null)}`));
      const result = (await tx.execute(sql.join(chunks))) as unknown as { rows: Record<string, unknown>[] };
      return { rows: result.rows };
    },
  };
}

export type JobHandler<T> = (data: T, job: { id: string; name: string; retryCount?: number }) => Promise<void>;

export interface WorkOptions {
  /** Jobs of this queue run at most this many at once in one process. */
  concurrency?: number;
  pollingIntervalSeconds?: number;
}

/** One queue's jobs in this process since it started (health/health.metrics.ts shows them on /metrics). */
export interface JobFigures {
  /** Attempts under way now. */
  running: number;
  /** Attempts whose handler returned. */
  completed: number;
  /** Attempts whose handler threw; pg-boss retries the job per its queue, and each retry counts again. */
  failed: number;
}

export interface QueueDefinition {
  name: string;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  /** A job still running after this long is considered lost (crashed worker) and retried. */
  expireInSeconds?: number;
}

/**
 * What pg-boss's statements get once the queue has stopped: "no job changed", the answer of its completion
 * commands. Only those come after stop: a handler that outlived stop's timeout (a long render) ends after the
 * database has closed, and pg-boss records its outcome without awaiting it. Sent to the closed database, that
 * was an unhandled rejection: a failed test run, and a process exiting 1 from a clean shutdown. stop() has
 * already had pg-boss fail such a job ('pg-boss shut down while active'), so it runs again in the next process;
 * its late outcome has nowhere to go.
 */
const LATE_OUTCOME_DROPPED = { rows: [{ count: 0 }] };

/**
 * Durable background jobs in PostgreSQL (pg-boss), on PGlite as on a server: a job sent is in the
 * database, so a crash or restart resumes it. One instance per process.
 */
export class JobQueue {
  readonly boss: PgBoss;
  private started = false;
  /** Set once `stop` has returned: the database may close any moment after. */
  private stopped = false;
  private readonly stopHooks: Array<() => Promise<void>> = [];
  private readonly figures = new Map<string, JobFigures>();

  constructor(
    private readonly database: Database,
    private readonly role: { work: boolean },
  ) {
    this.boss = new PgBoss({
      db: { executeSql: (text, values) => (this.stopped ? Promise.resolve(LATE_OUTCOME_DROPPED) : database.executeSql(text, values)) },
      schema: 'pgboss',
      // Only workers run maintenance and cron; API-only processes just send.
      supervise: role.work,
      schedule: role.work,
      migrate: true,
    });
  }

  /** True in processes that run background work (workers and `demoshare start`), false in API-only ones. */
  get runsWorkers(): boolean {
    return this.role.work;
  }

  /**
   * Stops a background loop that is not a pg-boss job (webhook deliveries) when the queue stops, before
   * pg-boss itself, so that its in-flight work finishes while the database is still open.
   */
  onStop(hook: () => Promise<void>): void {
    this.stopHooks.push(hook);
  }

  /** Stops the loops registered with onStop and waits for their in-flight work; pg-boss keeps running. */
  async stopLoops(): Promise<void> {
    const hooks = this.stopHooks.splice(0);
    await Promise.all(hooks.map((hook) => hook().catch(() => {})));
  }

  async start(onError: (error: Error) => void): Promise<void> {
    this.boss.on('error', onError);
    // pg-boss installs its schema under its own transaction lock, but processes started at once on an empty
    // database still collided in the catalog (a duplicate pgboss namespace): the first installs, the rest wait.
    await this.database.serialised(() => this.boss.start());
    this.started = true;
    this.stopped = false;
  }

  async define(queue: QueueDefinition): Promise<void> {
    const { name, ...options } = queue;
    // Processes started together define the same queues at the same moment, and PostgreSQL may pick one's
    // partition DDL as a deadlock victim (seen with two workers on an empty database). Both statements are
    // idempotent: try again rather than fail the start-up.
    for (let attempt = 1; ; attempt++) {
      try {
        const existing = await this.boss.getQueue(name);
        if (existing) await this.boss.updateQueue(name, { name, ...options });
        else await this.boss.createQueue(name, { name, ...options });
        return;
      } catch (error) {
        if (attempt >= 5 || (error as { code?: string }).code !== '40P01') throw error;
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt + Math.random() * 200));
      }
    }
  }

  /**
   * Queues a job. Given `tx` (a Drizzle transaction), the job is written in it: it exists if and only if
   * the transaction commits, so a change and the work it starts cannot part ways.
   */
  async send<T extends object>(name: string, data: T, options: PgBoss.SendOptions = {}, tx?: Executor): Promise<string | null> {
    // Outside a transaction, pg-boss would send through the stopped queue's db, which drops what it is given.
    if (this.stopped && !tx) throw new Error(`The job queue has stopped: ${name} not sent`);
    return this.boss.send(name, data, tx ? { ...options, db: transactionDb(tx) } : options);
  }

  /**
   * Deletes, in `tx`, every job of `name` whose data holds each field of `match` (compared in lower case),
   * whatever its state, and its archived copies: for erasing personal data that jobs carry (a viewer's
   * e-mail in a notification job). A job running at that moment has its data in memory already and ends
   * as it would; pg-boss finds nothing to mark done.
   */
  async deleteJobs(tx: Executor, name: string, match: Record<string, string>): Promise<number> {
    const conditions = Object.entries(match).map(([field, value]) => sql`lower(data->>${field}::text) = ${value.toLowerCase()}`);
    const where = sql.join([sql`name = ${name}::text`, ...conditions], sql` and `);
    let deleted = 0;
    for (const table of ['job', 'archive']) {
      const exists = (await tx.execute(sql`select to_regclass(${`pgboss.${table}`}) is not null as ok`)) as unknown as {
        rows: Array<{ ok: boolean }>;
      };
      if (!exists.rows[0]?.ok) continue;
      const result = (await tx.execute(sql`delete from ${sql.identifier('pgboss')}.${sql.identifier(table)} where ${where} returning 1`)) as unknown as {
        rows: unknown[];
      };
      deleted += result.rows.length;
    }
    return deleted;
  }

  /**
   * The jobs this process has run, by queue: each queue it works appears from then on, at zero, so that a
   * scrape sees the series before the first job. Empty in API-only processes, which run none.
   */
  jobFigures(): ReadonlyMap<string, Readonly<JobFigures>> {
    return this.figures;
  }

  /** Runs `handler` for each job of `name`; a throw fails the attempt and pg-boss retries it per the queue. */
  async work<T extends object>(name: string, options: WorkOptions, handler: JobHandler<T>): Promise<void> {
    if (!this.role.work) return;
    const figures = this.figures.get(name) ?? { running: 0, completed: 0, failed: 0 };
    this.figures.set(name, figures);
    const concurrency = Math.max(1, options.concurrency ?? 1);
    for (let i = 0; i < concurrency; i++) {
      await this.boss.work<T>(
        name,
        { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2, batchSize: 1 },
        async ([job]) => {
          if (!job) return;
          figures.running++;
          try {
            await handler(job.data, { id: job.id, name: job.name });
            figures.completed++;
          } catch (error) {
            figures.failed++;
            throw error;
          } finally {
            figures.running--;
          }
        },
      );
    }
  }

  async schedule(name: string, cron: string): Promise<void> {
    if (this.role.work) await this.boss.schedule(name, cron, {}, { tz: 'UTC' });
  }

  /** Stops taking jobs and waits for running ones to finish (or `timeoutMs`). */
  async stop(timeoutMs = 20_000): Promise<void> {
    await this.stopLoops();
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    this.stopped = true;
  }
}
