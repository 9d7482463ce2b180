import { useState } from 'react';
import type { Chapter, StoryProblem } from '../../api/types';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PlusIcon } from '../../components/icons';
import { StoryTextField } from './story-text';

/** The demo's chapters: add, rename, delete (their steps stay, in no chapter). */
export function ChaptersPanel({
  chapters,
  readOnly,
  onAdd,
  onRename,
  onDelete,
}: {
  chapters: Chapter[];
  readOnly: boolean;
  onAdd(title: string): Promise<unknown>;
  onRename(chapter: Chapter, title: string): void;
  onDelete(chapter: Chapter): Promise<unknown>;
}) {
  const [title, setTitle] = useState('');
  const [deleting, setDeleting] = useState<Chapter | null>(null);
  const add = async () => {
    const t = title.trim();
    if (!t) return;
    setTitle('');
    await onAdd(t);
  };
  return (
    <section className="panel" aria-label="Chapters">
      <h2 className="panel-title">Chapters</h2>
      {chapters.length === 0 ? <p className="field-hint">Chapters group steps; a chapter menu lets viewers choose one.</p> : null}
      <ol className="story-chapters">
        {chapters.map((c) => (
          <li key={c.id} className="story-chapter">
            <StoryTextField label={`Chapter ${c.number}`} value={c.title} required maxLength={120} readOnly={readOnly} onCommit={(t) => onRename(c, t)} />
            <span className="cell-sub">{c.step_numbers.length ? `Steps ${c.step_numbers.join(', ')}` : 'No steps yet'}</span>
            {readOnly ? null : (
              <button type="button" className="icon-button" aria-label={`Delete chapter ${c.title}`} onClick={() => setDeleting(c)}>
                ×
              </button>
            )}
          </li>
        ))}
      </ol>
      {readOnly ? null : (
        <form
          className="row story-chapter-add"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <input className="input" aria-label="New chapter title" placeholder="New chapter" maxLength={120} value={title} onChange={(e) => setTitle(e.target.value)} />
          <Button size="sm" type="submit" icon={<PlusIcon />} disabled={!title.trim()}>
            Add chapter
          </Button>
        </form>
      )}
      {deleting ? (
        <ConfirmDialog
          title={`Delete chapter “${deleting.title}”?`}
          confirmLabel="Delete chapter"
          danger
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await onDelete(deleting);
            setDeleting(null);
          }}
        >
          <p>Its steps stay in the demo, in no chapter. Buttons that led to it need a new target.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

/** What keeps the demo from being published, each with a way to its step. */
export function StoryProblems({ problems, onShow }: { problems: StoryProblem[]; onShow(stepNumber: number): void }) {
  if (problems.length === 0) return null;
  return (
    <section className="panel story-problems" aria-label="Story problems">
      <h2 className="panel-title">
        {problems.length === 1 ? '1 problem to fix before publishing' : `${problems.length} problems to fix before publishing`}
      </h2>
      <ul>
        {problems.map((p) => (
          <li key={`${p.code}:${p.step_number}:${p.element_id}:${p.message}`}>
            {p.message}{' '}
            {p.step_number ? (
              <button type="button" className="link-button" onClick={() => onShow(p.step_number!)}>
                Show step {p.step_number}
              </button>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
