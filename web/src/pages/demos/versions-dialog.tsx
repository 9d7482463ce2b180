import { useState } from 'react';
import { demosApi } from '../../api/demos.api';
import type { DemoDetail, DemoVersion } from '../../api/types';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { type CompareWith, VersionDiff } from './version-diff';

const SHOWN = 100;

const publisher = (v: DemoVersion) =>
  v.published_by ? v.published_by.name || v.published_by.email || 'a former member' : 'before version history began';

/**
 * Every publish of the demo, newest first, with who and when; "Compare" shows what the draft (or the live
 * version) changed since one; "Restore" copies a version into the draft (after asking: the draft's own
 * edits are replaced), which viewers see only once it is published. The live version has no Restore:
 * going back to it is "Discard changes".
 */
export function VersionsDialog({
  demo,
  readOnly,
  onRestored,
  onClose,
}: {
  demo: DemoDetail;
  readOnly: boolean;
  onRestored(): Promise<void>;
  onClose(): void;
}) {
  const notify = useToast();
  const versions = useResource(() => demosApi.versions(demo.id, { page: 1, per_page: SHOWN }));
  const [restoring, setRestoring] = useState<DemoVersion | null>(null);
  const [comparing, setComparing] = useState<DemoVersion | null>(null);
  const [against, setAgainst] = useState<CompareWith>('draft');
  const live = demo.published_version;

  if (comparing) {
    return (
      <Dialog
        title={`What changed since version ${comparing.number}`}
        size="lg"
        onClose={onClose}
        footer={
          <>
            <Button onClick={() => setComparing(null)}>Back to the versions</Button>
            <Button onClick={onClose} data-autofocus>
              Close
            </Button>
          </>
        }
      >
        {live !== null && live !== comparing.number ? (
          <fieldset className="segmented" aria-label="Compare with">
            <Button size="sm" variant={against === 'draft' ? 'primary' : 'secondary'} aria-pressed={against === 'draft'} onClick={() => setAgainst('draft')}>
              Current draft
            </Button>
            <Button size="sm" variant={against === 'live' ? 'primary' : 'secondary'} aria-pressed={against === 'live'} onClick={() => setAgainst('live')}>
              Live version {live}
            </Button>
          </fieldset>
        ) : null}
        <VersionDiff key={`${comparing.number}:${against}`} demo={demo} version={comparing.number} against={live === comparing.number ? 'draft' : against} />
      </Dialog>
    );
  }

  if (restoring) {
    return (
      <ConfirmDialog
        title={`Restore version ${restoring.number}?`}
        confirmLabel="Restore into the draft"
        onClose={() => setRestoring(null)}
        onConfirm={async () => {
          await demosApi.restoreVersion(demo.id, restoring.number);
          await onRestored();
          notify(
            demo.status === 'published'
              ? `Version ${restoring.number} restored into the draft. Publish changes to show it to viewers.`
              : `Version ${restoring.number} restored into the draft.`,
          );
          onClose();
        }}
      >
        <p>
          The draft’s title, settings, steps and hotspots are replaced by those of version {restoring.number} ({restoring.step_count}{' '}
          {restoring.step_count === 1 ? 'step' : 'steps'}). Edits not yet published are lost. Viewers keep seeing the published version until you
          publish.
        </p>
      </ConfirmDialog>
    );
  }

  return (
    <Dialog
      title="Versions"
      description="Each publish is kept as a version. Viewers see the newest one while the demo is published."
      size="md"
      onClose={onClose}
      footer={
        <Button onClick={onClose} data-autofocus>
          Close
        </Button>
      }
    >
      {versions.status === 'loading' ? <LoadingBlock label="Loading the versions…" /> : null}
      {versions.status === 'error' ? <LoadError error={versions.error} onRetry={versions.reload} /> : null}
      {versions.status === 'ready' && versions.data.rows.length === 0 ? (
        <p className="muted">This demo has not been published yet. Publishing it makes version 1.</p>
      ) : null}
      {versions.status === 'ready' && versions.data.rows.length > 0 ? (
        <ol className="version-list" aria-label="Versions">
          {versions.data.rows.map((v) => (
            <li key={v.id} className="version-item">
              <div className="version-main">
                <div className="version-title">
                  <strong>Version {v.number}</strong>
                  {v.number === demo.published_version ? <Badge tone="success">Live</Badge> : null}
                </div>
                <div className="version-meta">
                  Published {formatDateTime(v.published_at)} by {publisher(v)} · {v.step_count} {v.step_count === 1 ? 'step' : 'steps'}
                </div>
                <div className="version-meta" title={v.title}>
                  {v.title}
                </div>
              </div>
              <div className="version-actions">
                <Button
                  size="sm"
                  onClick={() => {
                    setAgainst('draft');
                    setComparing(v);
                  }}
                  aria-label={`Compare version ${v.number}`}
                >
                  Compare
                </Button>
                {readOnly || v.number === live ? null : (
                  <Button size="sm" onClick={() => setRestoring(v)} aria-label={`Restore version ${v.number}`}>
                    Restore
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {versions.status === 'ready' && versions.data.meta.total > SHOWN ? (
        <Alert tone="info">The {SHOWN} newest of {versions.data.meta.total} versions are shown.</Alert>
      ) : null}
    </Dialog>
  );
}
