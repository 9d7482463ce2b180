import { useCallback } from 'react';
import type { Permission, Session } from '../api/types';
import { useSession } from './session-context';

/**
 * Whether `session` may do `permission`, from the list the server computes off its permission table:
 * the web app never decides from a role, so what it shows cannot drift from what the API allows.
 */
export const can = (session: Session, permission: Permission) => session.permissions.includes(permission);

/** `can` for the signed-in session: `const allowed = useCan(); allowed('demos.delete')`. */
export function useCan(): (permission: Permission) => boolean {
  const session = useSession();
  return useCallback((permission: Permission) => can(session, permission), [session]);
}
