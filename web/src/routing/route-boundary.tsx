import { Component, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { Button } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { LoadingBlock } from '../components/spinner';
import { ChunkLoadError } from './lazy-page';

// A chunk that arrives within this time shows no spinner at all: a spinner seen for a blink is a flash.
const SPINNER_DELAY_MS = 400;

/** What stands where a page is until its chunk has loaded: nothing at first, then a spinner. */
function PendingPage({ whole }: { whole: boolean }) {
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const spinner = late ? <LoadingBlock /> : null;
  return whole ? <div className="boot">{spinner}</div> : spinner;
}

function ReloadMessage({ whole }: { whole: boolean }) {
  const message = (
    <div role="alert">
      <EmptyState
        title="This page could not be loaded"
        action={
          <Button variant="primary" onClick={() => window.location.reload()}>
            Reload
          </Button>
        }
      >
        Demoshare may have been updated since this tab was opened, or the connection dropped. Reload to get the current
        version.
      </EmptyState>
    </div>
  );
  return whole ? <div className="boot">{message}</div> : message;
}

interface BoundaryProps {
  whole: boolean;
  /** The path shown: another one clears the message, so the rest of the app stays usable. */
  path: string;
  children: ReactNode;
}

/** Catches a page whose chunk could not be loaded; any other error is a bug and goes on up. */
class ChunkErrorBoundary extends Component<BoundaryProps, { error: unknown; path: string }> {
  override state = { error: null as unknown, path: this.props.path };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: { path: string }) {
    return props.path === state.path ? null : { error: null, path: props.path };
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!(error instanceof ChunkLoadError)) throw error;
    return <ReloadMessage whole={this.props.whole} />;
  }
}

/**
 * Where a lazily loaded page appears: `whole` for the signed-out pages and the shell (the whole window),
 * otherwise the content area beside the navigation, which stays. Navigations run in a transition
 * (react-router's BrowserRouter), so moving between pages keeps the old one on screen until the new one is
 * ready; the fallback is only seen on a first load, and only when it is slow.
 */
export function RouteBoundary({ whole = false, children }: { whole?: boolean; children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ChunkErrorBoundary whole={whole} path={pathname}>
      <Suspense fallback={<PendingPage whole={whole} />}>{children}</Suspense>
    </ChunkErrorBoundary>
  );
}
