import type { ReactNode } from 'react';
import type { PathAnalytics } from '../../api/analytics.api';
import { type Column, Table } from '../../components/table';
import { downloadCsv } from './csv';
import { formatCount, formatPercent } from './headline';

type Chapter = PathAnalytics['chapters'][number];
type Branch = PathAnalytics['branches'][number];
type Cta = PathAnalytics['ctas'][number];
type Form = PathAnalytics['forms'][number];
type PathRow = PathAnalytics['paths'][number];

/** Interactive demos only: a linear demo's viewers send no path events, and the page stays as it was. */
export const hasPathFigures = (p: PathAnalytics) => p.chapters.length + p.branches.length + p.ctas.length + p.forms.length > 0;

const chapterName = (id: string, title: string | null) => title ?? `Chapter ${id.slice(-6)}`;
const stepName = (number: number, title: string | null) => (title ? `Step ${number} · ${title}` : `Step ${number}`);

/** One labelled bar, as the step funnel draws them (the numbers are the content, not a canvas). */
function Bar({ label, detail, share, figures }: { label: string; detail?: string; share: number; figures: ReactNode }) {
  return (
    <li className="funnel-step">
      <div className="funnel-label">
        <span className="funnel-number">{label}</span>
        {detail ? <span className="funnel-title">{detail}</span> : null}
      </div>
      <div className="funnel-bar-track" aria-hidden="true">
        <div className="funnel-bar" style={{ width: `${Math.max(share * 100, share > 0 ? 1.5 : 0)}%` }} />
      </div>
      <div className="funnel-figures">{figures}</div>
    </li>
  );
}

/** Which chapters viewers chose (share of all views), how many finished each, and each chapter's own funnel. */
export function ChaptersCard({ paths, file }: { paths: PathAnalytics; file(what: string): string }) {
  const { chapters } = paths;
  return (
    <section className="card" aria-labelledby="chapters-title">
      <div className="card-header row row-between">
        <div>
          <h2 id="chapters-title">Chapters</h2>
          <p className="muted">
            {chapters.length === 0 ? 'No chapter was chosen in this period.' : 'Which chapters viewers chose, and how far they went in each.'}
          </p>
        </div>
        <button type="button" className="btn btn-secondary btn-sm" disabled={chapters.length === 0} onClick={() => downloadCsv(file('chapters'), ...chaptersCsv(paths))}>
          Download CSV
        </button>
      </div>
      {chapters.length > 0 ? (
        <div className="card-body stack">
          <ol className="funnel" aria-label="Chapter choices">
            {chapters.map((c) => (
              <Bar
                key={c.chapter_id}
                label={chapterName(c.chapter_id, c.title)}
                share={c.choice_rate}
                figures={
                  <>
                    <span>
                      <strong>{formatCount(c.views)}</strong> chose it ({formatPercent(c.choice_rate)})
                    </span>
                    <span className="muted">{formatPercent(c.completion_rate)} finished it</span>
                  </>
                }
              />
            ))}
          </ol>
          {chapters.map((c) => (
            <ChapterFunnel key={c.chapter_id} chapter={c} />
          ))}
          {paths.paths.length > 0 ? <PathsTable rows={paths.paths} /> : null}
        </div>
      ) : null}
    </section>
  );
}

function ChapterFunnel({ chapter }: { chapter: Chapter }) {
  const id = `chapter-funnel-${chapter.chapter_id}`;
  return (
    <div className="path-funnel">
      <h3 id={id} className="path-subtitle">
        {chapterName(chapter.chapter_id, chapter.title)}: step funnel
      </h3>
      {chapter.funnel.length === 0 ? (
        <p className="muted">No step of this chapter was reached.</p>
      ) : (
        <ol className="funnel" aria-labelledby={id}>
          {chapter.funnel.map((s) => (
            <Bar
              key={s.number}
              label={`Step ${s.number}`}
              detail={s.title ?? undefined}
              share={s.share}
              figures={
                <span>
                  <strong>{formatCount(s.views)}</strong> reached ({formatPercent(s.share)})
                </span>
              }
            />
          ))}
        </ol>
      )}
    </div>
  );
}

const pathColumns: Column<PathRow>[] = [
  { key: 'path', header: 'Path', kind: 'primary', render: (p) => p.chapters.map((id, i) => chapterName(id, p.titles[i] ?? null)).join(' → ') },
  { key: 'views', header: 'Views', kind: 'nowrap', render: (p) => formatCount(p.views) },
  { key: 'share', header: 'Share of views', kind: 'nowrap', render: (p) => formatPercent(p.share) },
];

function PathsTable({ rows }: { rows: PathRow[] }) {
  return (
    <div>
      <h3 className="path-subtitle">Paths</h3>
      <Table caption="Views per path of chapters" columns={pathColumns} rows={rows} rowKey={(p) => p.chapters.join('>')} />
    </div>
  );
}

const ctaColumns: Column<Cta>[] = [
  { key: 'button', header: 'Button', kind: 'primary', render: (c) => c.label ?? c.button_id },
  { key: 'step', header: 'Step', kind: 'nowrap', render: (c) => c.step_number },
  { key: 'clicks', header: 'Clicks', kind: 'nowrap', render: (c) => formatCount(c.clicks) },
  { key: 'views', header: 'Viewers who clicked', kind: 'nowrap', render: (c) => formatCount(c.views) },
  { key: 'ctr', header: 'Click-through', kind: 'nowrap', render: (c) => formatPercent(c.click_through_rate) },
];

/** The branch columns; a chapter target is named by its title when the figures name the chapter. */
const branchColumns = (chapters: Map<string, string>): Column<Branch>[] => [
  { key: 'element', header: 'Hotspot or button', kind: 'primary', render: (b) => b.label ?? b.element_id },
  { key: 'step', header: 'Step', kind: 'nowrap', render: (b) => b.step_number },
  { key: 'action', header: 'Action', render: (b) => actionText(b, chapters) },
  { key: 'clicks', header: 'Clicks', kind: 'nowrap', render: (b) => formatCount(b.clicks) },
  { key: 'views', header: 'Viewers', kind: 'nowrap', render: (b) => formatCount(b.views) },
  { key: 'rate', header: 'Of step viewers', kind: 'nowrap', render: (b) => formatPercent(b.click_rate) },
];

function actionText(b: Branch, chapters: Map<string, string>) {
  const action = b.action_type ?? 'action';
  if (b.target === null) return action;
  if (typeof b.target === 'number') return `${action} → step ${b.target}`;
  return `${action} → ${chapters.get(b.target) ?? b.target}`;
}

const viewers = (n: number) => `${formatCount(n)} ${n === 1 ? 'viewer' : 'viewers'}`;

/** Calls to action and the branches taken: which buttons and hotspots viewers used. */
export function ClicksCard({ paths, file }: { paths: PathAnalytics; file(what: string): string }) {
  const { ctas, branches } = paths;
  return (
    <section className="card" aria-labelledby="ctas-title">
      <div className="card-header row row-between">
        <div>
          <h2 id="ctas-title">Calls to action and branches</h2>
          <p className="muted">
            {ctas.length + branches.length === 0 ? 'No button or hotspot was used in this period.' : 'Click-through is the share of the step’s viewers who clicked.'}
          </p>
        </div>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={ctas.length + branches.length === 0}
          onClick={() => downloadCsv(file('clicks'), ...clicksCsv(paths))}
        >
          Download CSV
        </button>
      </div>
      {ctas.length + branches.length > 0 ? (
        <div className="card-body stack">
          {ctas.length > 0 ? (
            <div>
              <h3 className="path-subtitle">Calls to action</h3>
              <Table caption="Calls to action" columns={ctaColumns} rows={ctas} rowKey={(c) => `${c.step_number}:${c.button_id}`} />
            </div>
          ) : null}
          {branches.length > 0 ? (
            <div>
              <h3 className="path-subtitle">Branches taken</h3>
              <Table
                caption="Hotspots and buttons used"
                columns={branchColumns(new Map(paths.chapters.flatMap((c) => (c.title ? [[c.chapter_id, c.title] as const] : []))))}
                rows={branches}
                rowKey={(b) => `${b.step_number}:${b.element_id}`}
              />
            </div>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

/** Lead forms: how many viewers saw each, started it and sent it. */
export function FormsCard({ paths, file }: { paths: PathAnalytics; file(what: string): string }) {
  const { forms } = paths;
  return (
    <section className="card" aria-labelledby="forms-title">
      <div className="card-header row row-between">
        <div>
          <h2 id="forms-title">Forms</h2>
          <p className="muted">{forms.length === 0 ? 'No form was shown in this period.' : 'Conversion is the share of viewers shown the form who sent it.'}</p>
        </div>
        <button type="button" className="btn btn-secondary btn-sm" disabled={forms.length === 0} onClick={() => downloadCsv(file('forms'), ...formsCsv(forms))}>
          Download CSV
        </button>
      </div>
      {forms.length > 0 ? (
        <div className="card-body stack">
          {forms.map((f) => (
            <FormFunnel key={f.step_number} form={f} />
          ))}
        </div>
      ) : null}
    </section>
  );
}

function FormFunnel({ form }: { form: Form }) {
  const id = `form-funnel-${form.step_number}`;
  const base = Math.max(form.shown, 1);
  const stages: Array<[string, number]> = [
    ['Shown', form.shown],
    ['Started', form.started],
    ['Submitted', form.submitted],
  ];
  return (
    <div className="path-funnel">
      <h3 id={id} className="path-subtitle">
        {stepName(form.step_number, form.title)}: {formatPercent(form.conversion)} conversion
      </h3>
      <ol className="funnel" aria-labelledby={id}>
        {stages.map(([label, n]) => (
          <Bar
            key={label}
            label={label}
            share={n / base}
            figures={
              <span>
                <strong>{viewers(n)}</strong> ({formatPercent(form.shown ? n / form.shown : 0)})
              </span>
            }
          />
        ))}
      </ol>
    </div>
  );
}

type Csv = [string[], unknown[][]];

export const chaptersCsv = (p: PathAnalytics): Csv => [
  ['chapter_id', 'chapter', 'choices', 'views', 'choice_rate', 'completed', 'completion_rate', 'demo_completions', 'funnel_step', 'step_title', 'step_views', 'step_share'],
  p.chapters.flatMap((c) => {
    const head = [c.chapter_id, c.title ?? '', c.choices, c.views, c.choice_rate, c.completed, c.completion_rate, c.demo_completions];
    return c.funnel.length === 0 ? [[...head, '', '', '', '']] : c.funnel.map((s) => [...head, s.number, s.title ?? '', s.views, s.share]);
  }),
];

export const clicksCsv = (p: PathAnalytics): Csv => [
  ['kind', 'step', 'element_id', 'label', 'action_type', 'target', 'clicks', 'views', 'rate'],
  [
    ...p.ctas.map((c) => ['cta', c.step_number, c.button_id, c.label ?? '', c.cta ?? '', '', c.clicks, c.views, c.click_through_rate]),
    ...p.branches.map((b) => ['branch', b.step_number, b.element_id, b.label ?? '', b.action_type ?? '', b.target ?? '', b.clicks, b.views, b.click_rate]),
  ],
];

export const formsCsv = (forms: Form[]): Csv => [
  ['step', 'title', 'shown', 'started', 'submitted', 'start_rate', 'conversion'],
  forms.map((f) => [f.step_number, f.title ?? '', f.shown, f.started, f.submitted, f.start_rate, f.conversion]),
];
