// Who acted and from where, built once per request (actorOf) and passed down to the change it records: routes never write audit entries themselves.
import type { AuthContext } from '../auth/permissions';
import type { ActorType } from './audit-actions';

/**
 * Who did something, as the audit log records it: built once per request by `actorOf(request)` and
 * passed to the service method that makes the change. The readable label (e-mail, key name, app name)
 * and, for OAuth, the app's id are looked up when the entry is written, from `credentialId`.
 */
export interface Actor {
  type: ActorType;
  /** The user (sessions), the key, or the OAuth grant the request came with; null for the system. */
  credentialId: string | null;
  /** The person acting, directly or through their key or an app they authorised. */
  userId: string | null;
  ip: string | null;
  userAgent: string | null;
}

interface RequestLike {
  auth?: AuthContext;
  ip?: string;
  headers: Record<string, string | string[] | undefined>;
}

const USER_AGENT_MAX = 512;

/** Where a request came from, for entries whose actor the service knows better than the route. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export function originOf(request: RequestLike): RequestOrigin {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip ?? null,
    userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, USER_AGENT_MAX) : null,
  };
}

const TYPE_OF: Record<AuthContext['kind'], ActorType> = { session: 'user', api_key: 'api_key', oauth: 'oauth_app' };

/** The actor of an authenticated request (a route that declared a permission). */
export function actorOf(request: RequestLike): Actor {
  const { auth } = request;
  if (!auth) throw new Error('actorOf needs an authenticated request: use userActor or systemActor');
  const credentialId = auth.kind === 'session' ? auth.userId : auth.credentialId;
  return { type: TYPE_OF[auth.kind], credentialId, userId: auth.userId, ...originOf(request) };
}

/**
 * A person the request does not sign in as, but whom the service knows: the account of a sign-in
 * (successful or failed), or the holder of a link from an e-mail (password reset, a new address).
 */
export function userActor(from: RequestOrigin, userId: string): Actor {
  return { type: 'user', credentialId: userId, userId, ...from };
}

/** An OAuth client acting on its own grant (RFC 7009 revocation), for the user who authorised it. */
export function clientActor(from: RequestOrigin, grant: { id: string; userId: string }): Actor {
  return { type: 'oauth_app', credentialId: grant.id, userId: grant.userId, ...from };
}

/** The server itself: jobs, and rules that act without a caller (a reused refresh token ends its grant). */
export function systemActor(): Actor {
  return { type: 'system', credentialId: null, userId: null, ip: null, userAgent: null };
}
