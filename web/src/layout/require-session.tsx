import { Navigate, Outlet, useLocation } from 'react-router';
import { LoadingBlock } from '../components/spinner';
import { useSessionState } from '../session/session-context';

/** Signed-in pages only: everyone else goes to /login, which brings them back here afterwards. */
export function RequireSession() {
  const { state } = useSessionState();
  const location = useLocation();
  if (state.status === 'loading') {
    return (
      <div className="boot">
        <LoadingBlock />
      </div>
    );
  }
  if (state.status === 'signed-out') {
    // After "Sign out" the next person to sign in should not land on the previous user's page.
    if (state.reason === 'logout') return <Navigate to="/login" replace />;
    const next = `${location.pathname}${location.search}`;
    const query = new URLSearchParams();
    if (next !== '/') query.set('next', next);
    if (state.reason === 'expired') query.set('expired', '1');
    const search = query.toString();
    return <Navigate to={`/login${search ? `?${search}` : ''}`} replace />;
  }
  return <Outlet />;
}
