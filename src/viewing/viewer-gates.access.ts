// POST /v1/viewer/:token/access: the one gate form, password and identification in a single submit.
import { tags } from '../core/changes';
import { AppError, type ErrorDetail, invalid } from '../core/errors';
import type { ViewerGatesDeps } from './viewer-gates';
import { saveIdentity } from './viewer-gates.identification';
import { attemptPassword } from './viewer-gates.password';
import type { LinkState } from './viewer-cache';
import { gateOf, isAllowed, recordDecision, resolve, type Visitor } from './viewer-gates.resolve';
import { ensureSession } from './viewer-gates.session';
import { gateFields } from './viewer-gates.view';
import * as repo from './viewer.repo';

/** What the one gate form sends: each field only where the gate asks for it (see `fields` of the link state). */
export interface AccessForm {
  password?: string;
  name?: string;
  email?: string;
}

const MISSING: Record<'password' | 'name' | 'email', string> = {
  password: 'Enter the password you were given',
  name: 'Enter your name',
  email: 'Enter your e-mail address',
};

/**
 * Passes every gate the viewer still stands at, in one request and in DESIGN.md's order: the missing
 * fields (400, each named), the password (the same budgets as /unlock: 401 on the `password` field, 429
 * while blocked), the allow-lists (403 on the `email` field). Nothing is stored unless all pass; then the
 * session is unlocked and identified in one write. A password sent for an open gate is ignored.
 */
export async function access(
  deps: ViewerGatesDeps,
  token: string,
  sessionToken: string | undefined,
  form: AccessForm,
  visitor: Visitor,
  /** Whether the demo's own gate form asks who the viewer is (then a password alone passes the first gate). */
  gateFormFollows?: (link: LinkState) => Promise<boolean>,
) {
  const { link, session } = await resolve(deps, token, sessionToken, visitor);
  const { share } = link;
  const asks = gateFields(share, session);
  // The state asked for the password alone: the demo's form identifies the viewer after it (viewer-gates.view.ts).
  const formLater =
    asks[0] === 'password' && form.name === undefined && form.email === undefined && (await gateFormFollows?.(link)) === true;
  // Identification is also accepted where the link does not require it, as on /identify.
  const identifying = (asks.includes('email') && !formLater) || form.name !== undefined || form.email !== undefined;
  const missing: ErrorDetail[] = [];
  if (asks.includes('password') && !form.password) missing.push({ field: 'password', message: MISSING.password });
  if (identifying && !form.name) missing.push({ field: 'name', message: MISSING.name });
  if (identifying && !form.email) missing.push({ field: 'email', message: MISSING.email });
  if (missing.length > 0) throw invalid(`${missing.map((m) => m.message).join('; ')}`, missing);

  const email = identifying ? form.email!.toLowerCase() : undefined;
  const name = identifying ? form.name! : undefined;
  const identity = { email: email ?? session?.viewerEmail, name: name ?? session?.viewerName };
  if (asks.includes('password') && share.passwordHash !== null) {
    if (!(await attemptPassword(deps, { ...share, passwordHash: share.passwordHash }, form.password!, visitor, identity))) {
      throw new AppError('unauthorized', 'Wrong password', {
        details: [
          { field: 'gate', message: 'password' },
          { field: 'password', message: 'That password is not correct' },
        ],
      });
    }
  }
  if (email && !isAllowed(share, email)) {
    await recordDecision(deps, share, 'not_allowed', visitor, identity);
    throw new AppError('forbidden', 'This e-mail address is not allowed to view this demo: ask the person who shared it for access', {
      details: [
        { field: 'gate', message: 'identification' },
        { field: 'email', message: 'This address is not allowed to view this demo' },
      ],
    });
  }

  const ensured = await ensureSession(deps, share, session, visitor);
  const also = asks.includes('password') ? { passwordVersion: share.passwordVersion } : {};
  const current =
    email && name
      ? await saveIdentity(deps, share, ensured.session.id, { name, email }, also)
      : asks.includes('password')
        ? await repo.updateViewerSession(deps.database.db, ensured.session.id, also)
        : ensured.session;
  if (current !== ensured.session) await deps.changes.announce(tags.session(current.id));
  if (asks.includes('password')) await recordDecision(deps, share, 'unlocked', visitor, identity);
  if (email) await recordDecision(deps, share, 'identified', visitor, identity);
  const gate = gateOf(share, current);
  if (gate === 'ready' && asks.length === 0 && !email) await recordDecision(deps, share, 'granted', visitor, identity);
  return { gate, share, link, session: current, issued: ensured.issued };
}
