import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { buildApp, registerJobs } from '../../src/app';
import type { Role, Scope } from '../../src/auth/permissions';
import { type Config, defaultAssetStore, testConfig } from '../../src/config';
import type { AppContext } from '../../src/context';
import { type Bus, createPostgresBus } from '../../src/core/bus';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlobStore } from '../../src/core/blob-store/blob-store';
import { createFilesystemStore } from '../../src/core/blob-store/filesystem-store';
import type { Clock } from '../../src/core/clock';
import type { GenerateDemo } from '../../src/demos/demos.generator';
import { JobQueue } from '../../src/jobs/queue';
import type { Mailer } from '../../src/mail/mailer';
import { checkResponses } from './contract';
import { createTestDatabase, type TestDatabase } from './database';
import { decodeBody, type TestSmtpServer } from './smtp';

export interface TestAppOptions {
  config?: Partial<Config>;
  clock?: Clock;
  mailer?: Mailer;
  /** Start the job queue (and run workers in this process). Off by default: it costs start-up time. */
  jobs?: boolean;
  /** Build on this database instead of a fresh one (a second app instance); the caller drops it. */
  database?: TestDatabase;
  /** Default: as `demoshare serve` picks it, PostgreSQL LISTEN/NOTIFY on PostgreSQL, so worker processes' changes reach this app. */
  bus?: Bus;
  redis?: Redis;
  /** The demo generator (default: none wired, every generation fails). */
  generator?: GenerateDemo;
  /**
   * Where `mailer` delivers, when it is an SMTP mailer: `member()` then takes the invitation link from the
   * e-mail this server received (without SMTP the link comes back in the invitation's response).
   */
  smtp?: TestSmtpServer;
  /** Where new assets' bytes go (a blob store, or null for the database); default: ASSET_STORE's. */
  assetStore?: BlobStore | null;
  /** Check every response against the OpenAPI document (helpers/contract.ts); on unless `false`. */
  contract?: boolean;
}

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  db: TestDatabase;
  close(): Promise<void>;
  /** A new account with its own workspace; returns a signed-in web session. */
  signUp(email?: string, password?: string): Promise<TestSession>;
  /** An API key for the admin of a fresh workspace (or for `session`'s member). */
  apiKey(scopes: Scope[] | 'all', session?: TestSession): Promise<string>;
  /**
   * A second person in `admin`'s workspace with `role`: invited by the admin, then signed up with the
   * invited address through the invitation link; the session acts in `admin`'s workspace.
   */
  member(admin: TestSession, role: Role, email?: string): Promise<TestSession>;
}

export interface TestSession {
  email: string;
  userId: string;
  workspaceId: string;
  memberId: string;
  cookie: string;
  csrf: string;
  /** Calls the app as this signed-in user (cookie + CSRF header). */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

let counter = 0;
export const uniqueEmail = (label = 'user') =>
  `${label}.${process.pid}.${Date.now().toString(36)}.${++counter}@example.com`;

export const TEST_SECRET = 'test-secret-key-that-is-long-enough-0123456789';

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = options.database ?? (await createTestDatabase());
  const queue = new JobQueue(db.database, { work: options.jobs ?? false });
  if (options.jobs) await queue.start(() => {});
  // Assets' bytes go where an instance on this engine keeps them when ASSET_STORE is unset: files on the embedded
  // database (in a folder of this app's own rather than the shared ./data), the database itself on PostgreSQL.
  // TEST_ASSET_STORE=filesystem puts them in files on PostgreSQL too (asset-store.test.ts covers S3).
  const engineDefault = process.env.TEST_ASSET_STORE === 'filesystem' ? 'filesystem' : defaultAssetStore(db.database.kind);
  const given = options.assetStore === null ? 'database' : options.assetStore?.kind;
  const storeKind = options.config?.ASSET_STORE ?? given ?? engineDefault;
  const blobDir = options.assetStore === undefined && storeKind === 'filesystem' ? await mkdtemp(join(tmpdir(), 'demoshare-blobs-')) : undefined;
  const { app, ctx } = await buildApp({
    // Tests sign up many users from one address; the login budget has its own test (sessions.test.ts).
    config: testConfig({ RATE_LIMIT_LOGIN_PER_MINUTE: 10_000, ASSET_STORE: storeKind, ...options.config }),
    database: db.database,
    secretKey: TEST_SECRET,
    queue,
    clock: options.clock,
    mailer: options.mailer,
    bus: options.bus ?? (db.database.kind === 'postgres' ? await createPostgresBus(db.database) : undefined),
    redis: options.redis,
    generator: options.generator,
    assetStore: blobDir ? createFilesystemStore(blobDir) : options.assetStore,
  });
  // Every response a test receives is checked against the OpenAPI document (helpers/contract.ts).
  if (options.contract !== false) checkResponses(app);
  await app.ready();
  // Defines every queue even without workers: services send into them (account e-mail) in their transactions.
  await registerJobs(ctx);

  async function signUp(email = uniqueEmail(), password = 'correct horse battery staple'): Promise<TestSession> {
    const res = await app.inject({ method: 'POST', url: '/v1/auth/signup', payload: { email, password } });
    if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
    return sessionFrom(app, email, res);
  }

  async function apiKey(scopes: Scope[] | 'all', session?: TestSession): Promise<string> {
    const owner = session ?? (await signUp());
    const { SCOPES } = await import('../../src/auth/permissions');
    const res = await owner.inject({
      method: 'POST',
      url: '/v1/api-keys',
      payload: { name: 'test key', scopes: scopes === 'all' ? [...SCOPES] : scopes },
    });
    if (res.statusCode !== 201) throw new Error(`key creation failed: ${res.statusCode} ${res.body}`);
    return res.json().data.key as string;
  }

  /** The token of the invitation link sent to `email`: from the invitation's answer, or from the e-mail. */
  async function invitationToken(email: string, invited: LightMyRequestResponse): Promise<string> {
    const url: string | undefined = invited.json().data.invitation?.url;
    if (url) return url.split('/invite/')[1]!;
    if (!options.smtp) throw new Error('the invitation was e-mailed: pass the test SMTP server as `smtp`');
    const mails = options.smtp.messages.filter((m) => m.to.includes(email));
    const mail = mails.length > 0 ? mails[mails.length - 1]! : await options.smtp.waitFor((m) => m.to.includes(email));
    const match = /\/invite\/([A-Za-z0-9_-]{43})/.exec(decodeBody(mail.raw));
    if (!match) throw new Error(`no invitation link in the e-mail to ${email}`);
    return match[1]!;
  }

  async function member(admin: TestSession, role: Role, email = uniqueEmail(role)): Promise<TestSession> {
    const invited = await admin.inject({ method: 'POST', url: '/v1/team/members', payload: { email, role } });
    if (invited.statusCode !== 201) throw new Error(`invitation failed: ${invited.statusCode} ${invited.body}`);
    const token = await invitationToken(email, invited);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email, password: 'correct horse battery staple', invitation_token: token },
    });
    if (res.statusCode !== 201) throw new Error(`sign-up with the invitation failed: ${res.statusCode} ${res.body}`);
    const session = sessionFrom(app, email, res);
    if (session.workspaceId !== admin.workspaceId) throw new Error('the invitation did not move the session');
    return session;
  }

  return {
    app,
    ctx,
    db,
    signUp,
    apiKey,
    member,
    async close() {
      await app.close();
      await queue.stop(2_000).catch(() => {});
      await ctx.bus.close();
      if (!options.database) await db.drop();
      if (blobDir) await rm(blobDir, { recursive: true, force: true });
    },
  };
}

export function sessionFrom(app: FastifyInstance, email: string, res: LightMyRequestResponse): TestSession {
  const cookies = res.cookies as Array<{ name: string; value: string }>;
  const session = cookies.find((c) => c.name === 'ds_session');
  const csrf = cookies.find((c) => c.name === 'ds_csrf');
  if (!session || !csrf) throw new Error('no session cookies in response');
  const body = res.json().data;
  const cookie = `ds_session=${session.value}; ds_csrf=${csrf.value}`;
  return {
    email,
    userId: body.user.id,
    workspaceId: body.workspace.id,
    memberId: body.member_id,
    cookie,
    csrf: csrf.value,
    inject: (options) =>
      app.inject({
        ...options,
        headers: { cookie, 'x-csrf-token': csrf.value, ...(options.headers ?? {}) },
      }),
  };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Calls the API as `key` and returns the envelope's `data`; a status of 300 or more throws, with the body. */
export async function keyData(t: Pick<TestApp, 'app'>, key: string, method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, payload?: object) {
  const res = await t.app.inject({ method, url: `/v1${url}`, headers: bearer(key), ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json().data;
}
