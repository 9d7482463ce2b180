import { useState } from 'react';
import { experimentsApi, type ExperimentResults, METRIC_LABELS } from '../../api/experiments.api';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useToast } from '../../components/toast';
import { formatDate } from '../../lib/format';

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const pValue = (p: number) => (p < 0.0001 ? '< 0.0001' : p.toFixed(4));

export const VERDICTS = {
  too_small: { tone: 'warning', title: 'Too early to call' },
  no_difference: { tone: 'info', title: 'No significant difference yet' },
  winner: { tone: 'success', title: 'A winner' },
} as const;

/**
 * Figures per arm, the significance of the difference (its method named), stop keeping an arm, remove.
 * Without `actions` (an earlier test of the link), the figures only: such a test is over and not the link's to change.
 */
export function ExperimentResultsView({
  shareId,
  results,
  actions,
}: {
  shareId: string;
  results: ExperimentResults;
  actions?: { onChanged(): Promise<void>; onNew(): void };
}) {
  const { experiment, significance } = results;
  const [keeping, setKeeping] = useState<{ id: string | null; label: string } | null>(null);
  const [removing, setRemoving] = useState(false);
  const notify = useToast();
  const running = experiment.status === 'running';
  const readOnly = !actions;
  const verdict = VERDICTS[significance.verdict];
  const winner = experiment.arms.find((a) => a.id === significance.winner_arm_id);
  const metricRate = (arm: ExperimentResults['arms'][number]) =>
    significance.metric === 'completion' ? arm.completion_rate : significance.metric === 'form_conversion' ? arm.form_conversion_rate : arm.cta_click_rate;

  return (
    <section className="stack" aria-label={readOnly ? 'Earlier A/B test results' : 'A/B test results'}>
      <div className="section-header">
        <div>
          <h3 className="share-heading">{experiment.name || 'A/B test'}</h3>
          <p className="field-hint">
            {running ? <Badge tone="accent">Running</Badge> : <Badge>Stopped</Badge>} {`Started ${formatDate(experiment.started_at)}`}
            {experiment.stopped_at ? ` · stopped ${formatDate(experiment.stopped_at)}` : ''}
            {` · compared on ${METRIC_LABELS[significance.metric].toLowerCase()}`}
          </p>
        </div>
      </div>

      <Alert tone={verdict.tone} title={verdict.title}>
        {significance.verdict === 'winner' && winner
          ? `“${winner.label}” does significantly better on ${METRIC_LABELS[significance.metric].toLowerCase()}.`
          : significance.verdict === 'too_small'
            ? `Every arm needs at least ${significance.min_views_per_arm} views (and 5 successes and 5 failures) before the test says anything.`
            : 'The arms differ by less than chance would explain.'}{' '}
        <span className="ab-method">{`Method: ${significance.method}; α = ${significance.alpha}${
          significance.corrected_alpha !== significance.alpha ? ` (${significance.corrected_alpha} per comparison)` : ''
        }.`}</span>
      </Alert>

      <ul className="ab-results" aria-label="Arms">
        {results.arms.map((arm, i) => {
          const meta = experiment.arms[i]!;
          return (
            <li key={arm.arm_id} className={`ab-card${experiment.winner_arm_id === arm.arm_id ? ' ab-card-kept' : ''}`}>
              <div className="ab-card-title">
                <span className="cell-strong">{arm.label}</span>
                <span className="chips">
                  {i === 0 ? <Badge>Control</Badge> : null}
                  <Badge tone="accent">{`Weight ${meta.weight} · ${Math.round(meta.share * 100)}%`}</Badge>
                  {!meta.serving ? <Badge tone="warning">{meta.demo_id ? 'Not published' : 'Demo deleted'}</Badge> : null}
                  {experiment.winner_arm_id === arm.arm_id ? <Badge tone="success">Kept</Badge> : null}
                  {significance.leader_arm_id === arm.arm_id && running ? <Badge tone="success">Leading</Badge> : null}
                </span>
              </div>
              <dl className="ab-figures">
                <div>
                  <dt>Views</dt>
                  <dd>{arm.views}</dd>
                </div>
                <div>
                  <dt>Completion</dt>
                  <dd>{percent(arm.completion_rate)}</dd>
                </div>
                <div>
                  <dt>Form conversion</dt>
                  <dd>{percent(arm.form_conversion_rate)}</dd>
                </div>
                <div>
                  <dt>CTA clicks</dt>
                  <dd>{percent(arm.cta_click_rate)}</dd>
                </div>
              </dl>
              <p className="cell-sub">
                {arm.comparison
                  ? `${METRIC_LABELS[significance.metric]} ${percent(metricRate(arm))}, ${arm.comparison.difference >= 0 ? '+' : '−'}${percent(Math.abs(arm.comparison.difference))} vs control · z = ${arm.comparison.z.toFixed(2)} · p = ${pValue(arm.comparison.p_value)}${arm.comparison.significant ? ' · significant' : ''}`
                  : `${METRIC_LABELS[significance.metric]} ${percent(metricRate(arm))} · ${arm.unique_viewers} distinct viewers`}
              </p>
              {running && !readOnly ? (
                <div>
                  <Button size="sm" onClick={() => setKeeping({ id: arm.arm_id, label: arm.label })} aria-label={`Stop and keep ${arm.label}`}>
                    Stop and keep this arm
                  </Button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>

      {actions ? (
        <div className="row row-end ab-actions">
          {running ? (
            <Button onClick={() => setKeeping({ id: null, label: 'the link’s own demo' })}>Stop without a winner</Button>
          ) : (
            <Button onClick={actions.onNew}>New A/B test</Button>
          )}
          <Button variant="ghost" className="btn-danger-text" onClick={() => setRemoving(true)}>
            Remove the A/B test
          </Button>
        </div>
      ) : null}

      {keeping ? (
        <ConfirmDialog
          title={`Stop and keep ${keeping.id ? `“${keeping.label}”` : keeping.label}?`}
          confirmLabel="Stop the A/B test"
          onClose={() => setKeeping(null)}
          onConfirm={async () => {
            await experimentsApi.stop(shareId, keeping.id);
            setKeeping(null);
            notify('A/B test stopped');
            await actions?.onChanged();
          }}
        >
          Every viewer of this link gets {keeping.id ? `“${keeping.label}”` : keeping.label} from now on. The figures of each arm stay here.
        </ConfirmDialog>
      ) : null}
      {removing ? (
        <ConfirmDialog
          title="Remove this A/B test?"
          confirmLabel="Remove"
          danger
          onClose={() => setRemoving(false)}
          onConfirm={async () => {
            await experimentsApi.remove(shareId);
            setRemoving(false);
            notify('A/B test removed');
            await actions?.onChanged();
          }}
        >
          These figures are gone, and the link serves what it served before this test: the arm an earlier test kept, or its own demo. The
          views stay in each demo’s analytics.
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
