import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { authApi } from '../api/auth.api';
import { ApiError, onUnauthorized } from '../api/client';
import type { Session } from '../api/types';

type SessionState = { status: 'loading' } | { status: 'signed-out'; reason: 'none' | 'expired' | 'logout' } | { status: 'signed-in'; session: Session };

interface SessionValue {
  state: SessionState;
  signedIn(session: Session): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

/** Who is signed in. Any 401 from the API (an expired or revoked session) lands here and signs out. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });

  useEffect(() => {
    onUnauthorized(() => setState({ status: 'signed-out', reason: 'expired' }));
    let cancelled = false;
    authApi
      .session()
      .then((session) => !cancelled && setState({ status: 'signed-in', session }))
      .catch((err: unknown) => {
        if (cancelled) return;
        // Any other failure still shows the sign-in page: better than a blank screen.
        setState({ status: 'signed-out', reason: 'none' });
        if (!(err instanceof ApiError && err.status === 401)) console.error(err);
      });
    return () => {
      cancelled = true;
    };
  }, []);

  const signedIn = useCallback((session: Session) => setState({ status: 'signed-in', session }), []);
  const signOut = useCallback(async () => {
    try {
      await authApi.logout();
    } finally {
      setState({ status: 'signed-out', reason: 'logout' });
    }
  }, []);

  const value = useMemo(() => ({ state, signedIn, signOut }), [state, signedIn, signOut]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSessionState(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSessionState needs a <SessionProvider>');
  return value;
}

/** The signed-in session; only for components under the signed-in layout. */
export function useSession(): Session {
  const { state } = useSessionState();
  if (state.status !== 'signed-in') throw new Error('useSession used outside the signed-in layout');
  return state.session;
}
