import { useRoutes } from 'react-router';
import { ToastProvider } from './components/toast';
import { RouteBoundary } from './routing/route-boundary';
import { ROUTES } from './routing/routes';
import { SessionProvider } from './session/session-context';

export function App() {
  const routes = useRoutes(ROUTES);
  return (
    <SessionProvider>
      <ToastProvider>
        <RouteBoundary whole>{routes}</RouteBoundary>
      </ToastProvider>
    </SessionProvider>
  );
}
