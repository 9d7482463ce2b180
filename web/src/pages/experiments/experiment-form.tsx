import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import { demosApi } from '../../api/demos.api';
import { experimentsApi, METRIC_LABELS, type Experiment } from '../../api/experiments.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { SelectField, TextField } from '../../components/field';
import { PlusIcon } from '../../components/icons';
import { useResource } from '../../lib/use-resource';

interface ArmDraft {
  /** Stable across removals, for React's list. */
  key: number;
  demoId: string;
  version: string;
  weight: string;
}

/** Arms (a published demo of the workspace, an optional pinned version, a weight), a metric, a name: start the test. */
export function ExperimentForm({
  shareId,
  demo,
  onStarted,
  onCancel,
}: {
  shareId: string;
  demo: { id: string; title: string };
  onStarted(experiment: Experiment): void | Promise<void>;
  onCancel?(): void;
}) {
  const demos = useResource(() => demosApi.list({ page: 1, per_page: 100, status: 'published' }));
  const [name, setName] = useState('');
  const [metric, setMetric] = useState<Experiment['metric']>('completion');
  const [arms, setArms] = useState<ArmDraft[]>([
    { key: 0, demoId: demo.id, version: '', weight: '1' },
    { key: 1, demoId: '', version: '', weight: '1' },
  ]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const set = (i: number, patch: Partial<Omit<ArmDraft, 'key'>>) => {
    setArms((all) => all.map((a, k) => (k === i ? { ...a, ...patch } : a)));
    // An edited field's old error would mislead until the next submit.
    const field = { demoId: 'demo_id', version: 'version', weight: 'weight' }[Object.keys(patch)[0] as 'demoId' | 'version' | 'weight'];
    setErrors(({ [`arms.${i}.${field}`]: _, ...rest }) => rest);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems: Record<string, string> = {};
    arms.forEach((a, i) => {
      if (!a.demoId) problems[`arms.${i}.demo_id`] = 'Choose a demo';
      if (!/^[1-9]\d{0,3}$/.test(a.weight) || Number(a.weight) > 1000) problems[`arms.${i}.weight`] = 'A whole number from 1 to 1000';
      if (a.version && !/^[1-9]\d*$/.test(a.version)) problems[`arms.${i}.version`] = 'A version number, or empty for the newest';
    });
    setErrors(problems);
    setFormError(null);
    if (Object.keys(problems).length > 0) return;
    setBusy(true);
    try {
      const started = await experimentsApi.start(shareId, {
        ...(name.trim() ? { name: name.trim() } : {}),
        metric,
        arms: arms.map((a) => ({ demo_id: a.demoId, weight: Number(a.weight), ...(a.version ? { version: Number(a.version) } : {}) })),
      });
      await onStarted(started);
    } catch (err) {
      setBusy(false);
      if (err instanceof ApiError && err.details.length > 0) setErrors(err.fieldErrors());
      else setFormError(err instanceof ApiError ? err.message : 'Could not start the A/B test.');
    }
  }

  const total = arms.reduce((s, a) => s + (Number(a.weight) || 0), 0);
  const options = demos.status === 'ready' ? demos.data.rows : [];
  return (
    <form className="stack" onSubmit={submit} aria-label="New A/B test" noValidate>
      {formError ? <Alert tone="danger">{formError}</Alert> : null}
      {errors.arms || errors['arms.0'] || errors['arms.1'] ? <Alert tone="danger">{errors.arms ?? errors['arms.0'] ?? errors['arms.1']}</Alert> : null}
      <TextField label="Name" optional value={name} maxLength={100} placeholder="Short tour vs full tour" onChange={(e) => setName(e.target.value)} />
      <SelectField
        label="Compare on"
        hint="The rate the significance test compares between arms."
        value={metric}
        onChange={(e) => setMetric(e.target.value as Experiment['metric'])}
      >
        {Object.entries(METRIC_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </SelectField>
      <fieldset className="ab-arms">
        <legend className="field-label">Arms</legend>
        <p className="field-hint">The first arm is the control: the others are compared with it. Published demos of this workspace only.</p>
        {arms.map((arm, i) => (
          <fieldset className="ab-arm-row" key={arm.key} aria-label={`Arm ${i + 1}`}>
            <SelectField label={`Arm ${i + 1}: demo`} value={arm.demoId} error={errors[`arms.${i}.demo_id`]} onChange={(e) => set(i, { demoId: e.target.value })}>
              <option value="">Choose a demo…</option>
              {options.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.title}
                </option>
              ))}
            </SelectField>
            <TextField
              label="Version"
              optional
              inputMode="numeric"
              placeholder="Newest"
              value={arm.version}
              error={errors[`arms.${i}.version`]}
              onChange={(e) => set(i, { version: e.target.value.trim() })}
            />
            <TextField
              label="Weight"
              inputMode="numeric"
              value={arm.weight}
              error={errors[`arms.${i}.weight`]}
              hint={total > 0 && Number(arm.weight) > 0 ? `${Math.round((Number(arm.weight) / total) * 100)}% of viewers` : undefined}
              onChange={(e) => set(i, { weight: e.target.value.trim() })}
            />
            {arms.length > 2 ? (
              <Button size="sm" variant="ghost" className="btn-danger-text ab-arm-remove" onClick={() => setArms(arms.filter((_, k) => k !== i))} aria-label={`Remove arm ${i + 1}`}>
                Remove
              </Button>
            ) : null}
          </fieldset>
        ))}
        {arms.length < 10 ? (
          <div>
            <Button size="sm" icon={<PlusIcon />} onClick={() => setArms([...arms, { key: Math.max(...arms.map((a) => a.key)) + 1, demoId: '', version: '', weight: '1' }])}>
              Add an arm
            </Button>
          </div>
        ) : null}
      </fieldset>
      <div className="row row-end">
        {onCancel ? <Button onClick={onCancel}>Cancel</Button> : null}
        <Button type="submit" variant="primary" loading={busy}>
          Start the A/B test
        </Button>
      </div>
    </form>
  );
}
