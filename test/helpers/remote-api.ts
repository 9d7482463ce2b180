/**
 * Calling a Demoshare process over real HTTP (a ServiceProcess, or any origin): sign up, make API keys,
 * and call routes with a key or a session, for tests whose server is another process.
 *
 *   const admin = await signUpOver(api.url);
 *   const key = await createKeyOver(api.url, admin);
 *   const res = await callOver(other.url, 'GET', '/v1/demos', { key });   // { status, body, headers }
 */
import { SCOPES } from '../../src/auth/permissions';
import { uniqueEmail } from './test-app';

export interface RemoteSession {
  email: string;
  cookie: string;
  csrf: string;
  workspaceId: string;
}

export interface RemoteResponse {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: JSON of many shapes; each test reads the fields it checks.
  body: any;
  headers: Headers;
}

export interface CallOptions {
  key?: string;
  session?: RemoteSession;
  body?: unknown;
  headers?: Record<string, string>;
}

export async function callOver(origin: string, method: string, path: string, options: CallOptions = {}): Promise<RemoteResponse> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.session) {
    headers.cookie = options.session.cookie;
    headers['x-csrf-token'] = options.session.csrf;
  }
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${origin}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  let body: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
  return { status: res.status, body, headers: res.headers };
}

/** Signs a new user up (a workspace of their own, as its admin) and returns the session's cookies. */
export async function signUpOver(origin: string, email = uniqueEmail()): Promise<RemoteSession> {
  const res = await fetch(`${origin}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple' }),
  });
  const text = await res.text();
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${text}`);
  const cookies = new Map(res.headers.getSetCookie().map((c) => c.split(';')[0]!.split('=') as [string, string]));
  const session = cookies.get('ds_session');
  const csrf = cookies.get('ds_csrf');
  if (!session || !csrf) throw new Error('no session cookies in the sign-up answer');
  return { email, cookie: `ds_session=${session}; ds_csrf=${csrf}`, csrf, workspaceId: JSON.parse(text).data.workspace.id };
}

/** A new API key of the session's workspace with every scope: `{ id, key }`. */
export async function createKeyOver(origin: string, session: RemoteSession, name = 'test key'): Promise<{ id: string; key: string }> {
  const res = await callOver(origin, 'POST', '/v1/api-keys', { session, body: { name, scopes: [...SCOPES] } });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, key: res.body.data.key };
}
