import { authApi } from '../../api/auth.api';
import { useSessionState } from '../../session/session-context';

/** Reloads the session after a change to the account, so the menu and banners show the new state. */
export function useRefreshSession() {
  const { signedIn } = useSessionState();
  return async () => signedIn(await authApi.session());
}
