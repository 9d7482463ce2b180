import { Link, useNavigate } from 'react-router';
import type { Demo, DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Spinner } from '../../components/spinner';
import { useCan } from '../../session/use-can';
import { FailedAttemptActions } from './failed-attempt-actions';

/** What the editor shows while a demo is being generated. */
export function GenerationProgress({ demo }: { demo: DemoDetail }) {
  const running = demo.generation.status === 'running';
  return (
    <div className="generation-progress" aria-live="polite">
      <Link to="/demos" className="back-link">
        ← Demos
      </Link>
      <h1>{demo.title}</h1>
      <div className="generation-card">
        <Spinner size={28} />
        <div>
          <p className="cell-strong">{running ? 'Capturing the page and writing the steps…' : 'Waiting for a worker to start…'}</p>
          <p className="muted">{demo.source_url}</p>
          <ol className="generation-stages">
            <li className="done">Queued</li>
            <li className={running ? 'active' : ''}>Capturing {demo.source_url ? new URL(demo.source_url).hostname : 'the page'}</li>
            <li>Writing steps and hotspots</li>
          </ol>
        </div>
      </div>
    </div>
  );
}

/** The advice for a server setting only the server's admins can change, in the failure's words. */
const ADMIN_ADVICE = /\s*An admin of this server can allow it.*$/s;

/**
 * Why the generation failed and what to do, for this reader: the server's words, except that a private
 * address's way out (a server setting) is told to admins, and others are told to ask one.
 */
export function failureWords(demo: Pick<Demo, 'generation'>, isAdmin: boolean): string {
  const error = demo.generation.error ?? 'Generation failed.';
  if (demo.generation.error_code !== 'blocked_address' || isAdmin) return error;
  return `${error.replace(ADMIN_ADVICE, '')} Ask an admin of this Demoshare server to allow this address, then retry.`;
}

/**
 * Shown above an empty editor whose generation failed: what happened, what to do, and Retry and Delete
 * (adding steps by hand stays possible below).
 */
export function GenerationFailedNotice({ demo, reload }: { demo: DemoDetail; reload(): unknown }) {
  const allowed = useCan();
  const navigate = useNavigate();
  return (
    <Alert tone="danger" title="Generation failed: this demo has no steps yet">
      <p>{failureWords(demo, allowed('workspace.manage'))}</p>
      <p className="muted">
        You can also add steps by hand below, or record the page with the <Link to="/recorder">browser extension</Link>.
      </p>
      <FailedAttemptActions demo={demo} onRetried={reload} onDeleted={() => navigate('/demos')} />
    </Alert>
  );
}
