import { useEffect, useState } from 'react';
import { ApiError } from '../../api/client';
import { type ExperimentResults, experimentsApi } from '../../api/experiments.api';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { LoadError } from '../../components/load-error';
import { Pager } from '../../components/pager';
import { useToast } from '../../components/toast';
import { formatDate } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { ExperimentResultsView } from './experiment-results';

// Five a page: each row also loads its results (for the verdict), so a page stays a handful of calls.
const PER_PAGE = 5;

/** What a finished test concluded, in a few words. */
function verdictOf({ experiment, significance }: ExperimentResults): { tone: 'success' | 'neutral' | 'warning'; label: string } {
  if (significance.verdict === 'winner') {
    const winner = experiment.arms.find((a) => a.id === significance.winner_arm_id);
    return { tone: 'success', label: `“${winner?.label ?? 'An arm'}” won` };
  }
  return significance.verdict === 'too_small' ? { tone: 'warning', label: 'Too small a sample' } : { tone: 'neutral', label: 'No significant difference' };
}

/**
 * The link's tests before the one shown above it, newest first, each with its arms, dates, the arm it kept and
 * the verdict of its figures; `onOpen` shows one's results, Delete removes one (after asking). Nothing at all
 * while the link has had one test only.
 */
export function EarlierExperiments({ shareId, currentId, onOpen }: { shareId: string; currentId: string; onOpen(experimentId: string): void }) {
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<{ id: string; name: string; started: string } | null>(null);
  const notify = useToast();
  const earlier = useResource(async () => {
    const { rows, meta } = await experimentsApi.list(shareId, page, PER_PAGE);
    // The list starts with the test shown above: the earlier ones are the rest.
    const before = rows.filter((r) => r.id !== currentId);
    return { results: await Promise.all(before.map((r) => experimentsApi.resultsOf(shareId, r.id))), meta };
  });
  const { reload } = earlier;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page is what the list depends on
  useEffect(() => {
    void reload();
  }, [page, reload]);

  if (earlier.status === 'loading') return null;
  if (earlier.status === 'error') return <LoadError error={earlier.error} onRetry={earlier.reload} />;
  const { results, meta } = earlier.data;
  if (meta.total <= 1) return null;

  return (
    <section className="stack ab-earlier" aria-labelledby="ab-earlier-heading">
      <h3 id="ab-earlier-heading" className="share-heading">
        Earlier tests
      </h3>
      <ul className="ab-earlier-list" aria-label="Earlier tests">
        {results.map((r) => {
          const { experiment } = r;
          const kept = experiment.arms.find((a) => a.id === experiment.winner_arm_id);
          const verdict = verdictOf(r);
          const name = experiment.name || 'A/B test';
          return (
            <li key={experiment.id} className="ab-earlier-item">
              <div className="ab-earlier-text">
                <span className="cell-strong">{name}</span>
                <span className="cell-sub">{experiment.arms.map((a) => a.label).join(' vs ')}</span>
                <span className="cell-sub">
                  {`${formatDate(experiment.started_at)} – ${experiment.stopped_at ? formatDate(experiment.stopped_at) : 'running'}`}
                </span>
                <span className="chips">
                  {kept ? <Badge tone="success">{`Kept “${kept.label}”`}</Badge> : <Badge>No arm kept</Badge>}
                  <Badge tone={verdict.tone}>{verdict.label}</Badge>
                </span>
              </div>
              <div className="ab-earlier-actions">
                <Button size="sm" onClick={() => onOpen(experiment.id)} aria-label={`Results of ${name}, started ${formatDate(experiment.started_at)}`}>
                  Results
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="btn-danger-text"
                  onClick={() => setDeleting({ id: experiment.id, name, started: formatDate(experiment.started_at) })}
                  aria-label={`Delete ${name}, started ${formatDate(experiment.started_at)}`}
                >
                  Delete
                </Button>
              </div>
            </li>
          );
        })}
      </ul>
      {meta.total > PER_PAGE ? <Pager meta={meta} requested={page} onPage={setPage} label="Earlier tests pages" size="sm" /> : null}
      {deleting ? (
        <ConfirmDialog
          title={`Delete “${deleting.name}”?`}
          confirmLabel="Delete the test"
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            try {
              await experimentsApi.removeEarlier(shareId, deleting.id);
            } catch (err) {
              // The API's 409 names the route for the newest; here the way is the dialog's own Remove.
              if (err instanceof ApiError && err.status === 409) {
                throw new ApiError(
                  409,
                  err.code,
                  'Since this dialog opened, this test has become the link’s current one (the newer test was removed). Open the A/B test again: it is shown at the top, with Remove',
                );
              }
              throw err;
            }
            setDeleting(null);
            notify('Earlier A/B test deleted');
            // The last one of a later page: the page before (its change reloads the list).
            if (results.length === 1 && page > 1) setPage(page - 1);
            else await reload();
          }}
        >
          {`The test started ${deleting.started} and its figures are gone for good. The link keeps serving what it serves now, and the views stay in each demo’s analytics.`}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

const keptText = ({ experiment }: ExperimentResults) => {
  const kept = experiment.arms.find((a) => a.id === experiment.winner_arm_id);
  return kept ? `the link served “${kept.label}”` : 'the link served its own demo';
};

/** One earlier test's results, read-only, with the way back to the link's current test. */
export function EarlierExperimentView({ shareId, experimentId, onBack }: { shareId: string; experimentId: string; onBack(): void }) {
  const results = useResource(() => experimentsApi.resultsOf(shareId, experimentId));
  return (
    <div className="stack">
      <div>
        <Button size="sm" variant="ghost" onClick={onBack}>
          ← Back to the current test
        </Button>
      </div>
      {results.status === 'loading' ? <p className="field-hint">Loading the A/B test…</p> : null}
      {results.status === 'error' ? <LoadError error={results.error} onRetry={results.reload} /> : null}
      {results.status === 'ready' ? (
        <>
          <Alert tone="info" title="An earlier test">
            {`It ended on ${results.data.experiment.stopped_at ? formatDate(results.data.experiment.stopped_at) : '—'}; ${keptText(results.data)} until the next test started. Its figures stay as they were then.`}
          </Alert>
          <ExperimentResultsView shareId={shareId} results={results.data} />
        </>
      ) : null}
    </div>
  );
}
