import { useState } from 'react';
import { ApiError } from '../../api/client';
import { experimentsApi } from '../../api/experiments.api';
import { linkName, type Share } from '../../api/shares.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { LoadError } from '../../components/load-error';
import { useResource } from '../../lib/use-resource';
import { EarlierExperimentView, EarlierExperiments } from './earlier-experiments';
import { ExperimentForm } from './experiment-form';
import { ExperimentResultsView } from './experiment-results';
import './experiments.css';

/**
 * The A/B test of one link: start one (arms and weights), or read its results, stop it keeping the winner, remove
 * it; below, the link's earlier tests, each opening its results read-only, or deleted after asking.
 */
export function ExperimentDialog({ share, demo, onClose }: { share: Share; demo: { id: string; title: string }; onClose(): void }) {
  const current = useResource(async () => {
    try {
      return await experimentsApi.results(share.id);
    } catch (err) {
      // No experiment yet: the form to start one.
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  });
  const [restart, setRestart] = useState(false);
  // An earlier test whose results are shown instead of the current one's.
  const [opened, setOpened] = useState<string | null>(null);

  return (
    <Dialog
      title={`A/B test: ${linkName(share)}`}
      description="The link serves two or more demos (or versions) by weight; each viewer stays on the one first shown."
      size="lg"
      onClose={onClose}
      footer={<Button onClick={onClose}>Close</Button>}
    >
      {current.status === 'loading' ? <p className="field-hint">Loading the A/B test…</p> : null}
      {current.status === 'error' ? <LoadError error={current.error} onRetry={current.reload} /> : null}
      {current.status === 'ready' && (current.data === null || restart) ? (
        <ExperimentForm
          shareId={share.id}
          demo={demo}
          onCancel={current.data ? () => setRestart(false) : undefined}
          onStarted={async () => {
            setRestart(false);
            await current.reload();
          }}
        />
      ) : null}
      {current.status === 'ready' && current.data && !restart && opened ? (
        <EarlierExperimentView shareId={share.id} experimentId={opened} onBack={() => setOpened(null)} />
      ) : null}
      {current.status === 'ready' && current.data && !restart && !opened ? (
        <div className="stack">
          {current.data.experiment.status === 'stopped' ? (
            <Alert tone="success" title="Stopped">
              {current.data.experiment.winner_arm_id
                ? `Every viewer now gets “${current.data.experiment.arms.find((a) => a.id === current.data?.experiment.winner_arm_id)?.label}”.`
                : 'The link serves its own demo again.'}
            </Alert>
          ) : null}
          <ExperimentResultsView shareId={share.id} results={current.data} actions={{ onChanged: current.reload, onNew: () => setRestart(true) }} />
          {/* Keyed by the test shown above: a new test, or the removal of this one, changes which are earlier. */}
          <EarlierExperiments key={current.data.experiment.id} shareId={share.id} currentId={current.data.experiment.id} onOpen={setOpened} />
        </div>
      ) : null}
    </Dialog>
  );
}
