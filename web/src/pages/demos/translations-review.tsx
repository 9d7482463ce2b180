import { useState } from 'react';
import { ApiError } from '../../api/client';
import { type TranslationUnit, translationsApi } from '../../api/translations.api';
import type { DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';

type Filter = 'all' | 'todo';
const SHOWN = 150;

const stateBadge = (u: TranslationUnit) =>
  u.state === 'translated' ? null : u.state === 'stale' ? <Badge tone="warning">Source changed</Badge> : <Badge tone="neutral">Not translated</Badge>;

/**
 * One language, text by text: where each shows, its source and its translation (editable), the texts
 * not translated or translated from an older source first when asked. "Approve for viewers" makes the
 * language reviewed: from then on viewers asking for it get it. Markup and {{variables}} must stay.
 */
export function TranslationReview({
  demo,
  lang,
  readOnly,
  onBack,
  onClose,
}: {
  demo: DemoDetail;
  lang: string;
  readOnly: boolean;
  onBack(): void;
  onClose(): void;
}) {
  const notify = useToast();
  const detail = useResource(() => translationsApi.get(demo.id, lang));
  const [edits, setEdits] = useState<Record<string, string>>({});
  const [filter, setFilter] = useState<Filter>('all');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiError | Error | null>(null);
  const pending = Object.keys(edits).length;

  const save = async (status?: 'draft' | 'reviewed') => {
    setBusy(true);
    setProblem(null);
    try {
      const units = Object.entries(edits).map(([id, target]) => ({ id, target: target.trim() ? target : null }));
      await translationsApi.update(demo.id, lang, { ...(units.length ? { units } : {}), ...(status ? { status } : {}) });
      setEdits({});
      notify(status === 'reviewed' ? `${lang} approved: viewers who ask for it get it` : status === 'draft' ? `${lang} is a draft again` : 'Translations saved');
      await detail.reload();
    } catch (error) {
      setProblem(error as Error);
    } finally {
      setBusy(false);
    }
  };

  const data = detail.status === 'ready' ? detail.data : null;
  const units = data ? data.units.filter((u) => filter === 'all' || u.state !== 'translated') : [];

  return (
    <Dialog
      title={`Translation: ${lang}`}
      description={data ? `${data.units_translated} of ${data.units_total} texts translated · ${data.status === 'reviewed' ? 'shown to viewers' : 'draft, not shown to viewers'}` : undefined}
      size="lg"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onBack}>← Languages</Button>
          {readOnly || !data ? null : (
            <>
              {pending > 0 ? (
                <Button onClick={() => save()} loading={busy}>
                  Save {pending} {pending === 1 ? 'edit' : 'edits'}
                </Button>
              ) : null}
              {data.status === 'reviewed' ? (
                <Button onClick={() => save('draft')} loading={busy}>
                  Back to draft
                </Button>
              ) : (
                <Button variant="primary" onClick={() => save('reviewed')} loading={busy}>
                  Approve for viewers
                </Button>
              )}
            </>
          )}
        </>
      }
    >
      {detail.status === 'loading' ? <LoadingBlock label="Loading the texts…" /> : null}
      {detail.status === 'error' ? <LoadError error={detail.error} onRetry={detail.reload} /> : null}
      {problem ? (
        <Alert tone="danger">
          {problem.message.split(': ')[0]}
          {problem instanceof ApiError && problem.details?.length ? (
            <ul className="translation-problems">
              {problem.details.slice(0, 8).map((d) => (
                <li key={d.field}>
                  <code>{d.field.replace(/^units\./, '')}</code> {d.message}
                </li>
              ))}
            </ul>
          ) : null}
        </Alert>
      ) : null}
      {data ? (
        <>
          <fieldset className="segmented" aria-label="Show">
            <Button size="sm" variant={filter === 'all' ? 'primary' : 'secondary'} aria-pressed={filter === 'all'} onClick={() => setFilter('all')}>
              All texts
            </Button>
            <Button size="sm" variant={filter === 'todo' ? 'primary' : 'secondary'} aria-pressed={filter === 'todo'} onClick={() => setFilter('todo')}>
              To do ({data.units.filter((u) => u.state !== 'translated').length})
            </Button>
          </fieldset>
          <ol className="translation-units" aria-label="Texts">
            {units.slice(0, SHOWN).map((u) => (
              <li key={u.id} className="translation-unit">
                <div className="translation-unit-head">
                  <span className="muted">{u.note}</span>
                  {u.kind === 'html' ? <Badge tone="neutral">Rich text: keep the tags</Badge> : null}
                  {stateBadge(u)}
                </div>
                <div className="translation-unit-body">
                  <p className="translation-source" lang="und">
                    {u.source}
                  </p>
                  <textarea
                    className="input translation-target"
                    aria-label={`Translation of ${u.note}`}
                    lang={lang}
                    rows={Math.min(8, Math.max(u.kind === 'html' ? 3 : 1, Math.ceil(Math.max(u.source.length, (u.target ?? '').length) / 40)))}
                    readOnly={readOnly}
                    value={edits[u.id] ?? u.target ?? ''}
                    placeholder="Not translated: the original shows"
                    onChange={(e) => setEdits((all) => ({ ...all, [u.id]: e.target.value }))}
                  />
                </div>
              </li>
            ))}
          </ol>
          {units.length > SHOWN ? (
            <Alert tone="info">
              The first {SHOWN} of {units.length} texts are shown: translate long demos in a file (Download, then Upload).
            </Alert>
          ) : null}
        </>
      ) : null}
    </Dialog>
  );
}
