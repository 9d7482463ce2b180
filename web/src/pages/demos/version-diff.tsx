import type { z } from 'zod';
import type { versionChangesSchema } from '../../../../src/demos/demo-versions.schemas';
import { api } from '../../api/client';
import type { DemoDetail } from '../../api/types';
import { Badge } from '../../components/badge';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useResource } from '../../lib/use-resource';

type VersionChanges = z.output<typeof versionChangesSchema>;
type StepChange = VersionChanges['steps'][number];
export type CompareWith = 'draft' | 'live';

const loadChanges = (demoId: string, version: number, against: CompareWith) =>
  api<VersionChanges>('GET', `/demos/${encodeURIComponent(demoId)}/versions/${version}/changes`, { query: { against } });

const PART_WORDS: Record<StepChange['parts'][number], string> = {
  title: 'title',
  description: 'description',
  image: 'image',
  page: 'page address',
  hotspots: 'hotspots',
  position: 'moved',
  kind: 'kind of step',
  chapter: 'chapter',
  buttons: 'buttons',
  form: 'form',
  page_edits: 'page edits',
};

const TONE = { added: 'success', removed: 'danger', changed: 'warning', unchanged: 'neutral' } as const;
const LABEL = { added: 'Added', removed: 'Removed', changed: 'Changed', unchanged: 'Same' } as const;

function hotspotWords(h: StepChange['hotspots']) {
  return [h.added ? `${h.added} added` : '', h.removed ? `${h.removed} removed` : '', h.changed ? `${h.changed} changed` : '']
    .filter(Boolean)
    .join(', ');
}

/** One step's line: its numbers on both sides, what changed in it, and the old and new words. */
function StepLine({ step }: { step: StepChange }) {
  const numbers =
    step.number_from && step.number_to && step.number_from !== step.number_to
      ? `Step ${step.number_from} → ${step.number_to}`
      : `Step ${step.number_to ?? step.number_from}`;
  return (
    <li className={`diff-step diff-step-${step.change}`} data-change={step.change}>
      <div className="diff-step-head">
        <Badge tone={TONE[step.change]}>{LABEL[step.change]}</Badge>
        <strong>{numbers}</strong>
        <span className="diff-step-title">{step.title_to ?? step.title_from}</span>
      </div>
      {step.change === 'changed' ? (
        <div className="diff-step-body">
          <div className="version-meta">
            Changed:{' '}
            {step.parts.map((p) => (p === 'hotspots' ? `hotspots (${hotspotWords(step.hotspots)})` : PART_WORDS[p])).join(' · ')}
          </div>
          {step.parts.includes('title') ? (
            <p className="diff-words">
              <del>{step.title_from}</del> <ins>{step.title_to}</ins>
            </p>
          ) : null}
          {step.parts.includes('description') ? (
            <p className="diff-words">
              <del>{step.description_from || '(no text)'}</del> <ins>{step.description_to || '(no text)'}</ins>
            </p>
          ) : null}
        </div>
      ) : null}
    </li>
  );
}

/** What the draft (or the live version) changed since `version`, step by step; unchanged steps are folded. */
export function VersionDiff({ demo, version, against }: { demo: DemoDetail; version: number; against: CompareWith }) {
  const changes = useResource(() => loadChanges(demo.id, version, against));
  if (changes.status === 'loading') return <LoadingBlock label="Comparing…" />;
  if (changes.status === 'error') return <LoadError error={changes.error} onRetry={changes.reload} />;
  const { data } = changes;
  const other = data.against === 'draft' ? 'the current draft' : `version ${data.against} (live)`;
  const shown = data.steps.filter((s) => s.change !== 'unchanged');
  const same = data.steps.length - shown.length;
  return (
    <section className="version-diff" aria-label={`Changes from version ${version} to ${other}`}>
      <p className="muted">
        From version {version} to {other}:
      </p>
      {data.title ? (
        <p className="diff-words">
          Title: <del>{data.title.from}</del> <ins>{data.title.to}</ins>
        </p>
      ) : null}
      {data.configuration_changed ? <p className="diff-words">Player settings changed.</p> : null}
      {shown.length === 0 && !data.title && !data.configuration_changed ? <p>No differences.</p> : null}
      {shown.length > 0 ? (
        <ol className="diff-steps" aria-label="Step changes">
          {shown.map((s) => (
            <StepLine key={s.step_id} step={s} />
          ))}
        </ol>
      ) : null}
      {same > 0 && shown.length > 0 ? (
        <p className="version-meta">
          {same} {same === 1 ? 'step is' : 'steps are'} the same.
        </p>
      ) : null}
    </section>
  );
}
