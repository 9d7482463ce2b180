import { Link } from 'react-router';
import type { DemoDetail } from '../../api/types';
import { Spinner } from '../../components/spinner';

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
