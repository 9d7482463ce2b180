import { useRef, useState } from 'react';
import { ApiError } from '../../api/client';
import { type Translation, type TranslationFormat, translationsApi } from '../../api/translations.api';
import type { DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { SelectField, TextField } from '../../components/field';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { formatDateTime } from '../../lib/format';
import { useResource } from '../../lib/use-resource';
import { TranslationReview } from './translations-review';
import '../../styles/translations.css';

const LANG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

/** What went wrong, with the units an import named (at most 8 shown). */
function Problem({ error }: { error: unknown }) {
  const details = error instanceof ApiError ? (error.details ?? []) : [];
  return (
    <Alert tone="danger">
      {error instanceof Error ? error.message.split(': ')[0] : 'Something went wrong.'}
      {details.length > 0 ? (
        <ul className="translation-problems">
          {details.slice(0, 8).map((d) => (
            <li key={`${d.field}:${d.message}`}>
              <code>{d.field.replace(/^units\./, '')}</code> {d.message}
            </li>
          ))}
          {details.length > 8 ? <li>and {details.length - 8} more</li> : null}
        </ul>
      ) : null}
    </Alert>
  );
}

/**
 * The editor's More → Translations: the demo's languages (draft or reviewed, how much of the draft each
 * covers), a file to translate (XLIFF 2.0 or PO) and the translated file back, machine translation through
 * the workspace's model, and each language's review, where it is approved for viewers. docs/translation.md.
 */
export function TranslationsDialog({ demo, readOnly, onClose }: { demo: DemoDetail; readOnly: boolean; onClose(): void }) {
  const notify = useToast();
  const languages = useResource(() => translationsApi.list(demo.id));
  const [lang, setLang] = useState('');
  const [format, setFormat] = useState<TranslationFormat>('xliff');
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<unknown>(null);
  const [reviewing, setReviewing] = useState<string | null>(null);
  const [removing, setRemoving] = useState<Translation | null>(null);
  const file = useRef<HTMLInputElement>(null);
  const validLang = LANG.test(lang.trim());

  const run = async (label: string, work: () => Promise<string>) => {
    setBusy(label);
    setProblem(null);
    try {
      notify(await work());
      await languages.reload();
    } catch (error) {
      setProblem(error);
    } finally {
      setBusy(null);
    }
  };

  if (reviewing) {
    return <TranslationReview demo={demo} lang={reviewing} readOnly={readOnly} onBack={() => { setReviewing(null); void languages.reload(); }} onClose={onClose} />;
  }
  if (removing) {
    return (
      <ConfirmDialog
        title={`Remove ${removing.lang}?`}
        confirmLabel="Remove the language"
        danger
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          await translationsApi.remove(demo.id, removing.lang);
          notify(`${removing.lang} removed: viewers get the original`);
          setRemoving(null);
          await languages.reload();
        }}
      >
        <p>Its {removing.units_translated} translated texts are deleted. Viewers who asked for it get the original.</p>
      </ConfirmDialog>
    );
  }

  const upload = (picked: File | undefined) => {
    if (!picked) return;
    void run('upload', async () => {
      const done = await translationsApi.import(demo.id, picked, validLang ? lang.trim() : undefined);
      return `${done.lang}: ${done.imported} texts imported${done.untranslated ? `, ${done.untranslated} left untranslated` : ''}. Review it to show it to viewers.`;
    });
    if (file.current) file.current.value = '';
  };

  return (
    <Dialog
      title="Translations"
      description="Translate every text of this demo, its captured pages included. Viewers get a reviewed language when their browser (or the link’s ?lang=) asks for it."
      size="lg"
      onClose={onClose}
      footer={
        <Button onClick={onClose} data-autofocus>
          Close
        </Button>
      }
    >
      <section className="translation-add" aria-label="Translate">
        <div className="translation-add-fields">
          <TextField
            label="Language"
            placeholder="fr, de, pt-BR"
            hint="A language tag"
            value={lang}
            maxLength={35}
            onChange={(e) => setLang(e.target.value)}
            error={lang.trim() && !validLang ? 'Write a language tag such as fr or pt-BR' : undefined}
          />
          <SelectField label="File format" value={format} onChange={(e) => setFormat(e.target.value as TranslationFormat)}>
            <option value="xliff">XLIFF 2.0</option>
            <option value="po">gettext PO</option>
          </SelectField>
        </div>
        <div className="translation-add-actions">
          <a
            className={`btn btn-secondary${validLang ? '' : ' is-disabled'}`}
            aria-disabled={!validLang}
            href={validLang ? translationsApi.exportUrl(demo.id, lang.trim(), format) : undefined}
            download
          >
            Download file to translate
          </a>
          {readOnly ? null : (
            <>
              <Button onClick={() => file.current?.click()} loading={busy === 'upload'}>
                Upload translated file
              </Button>
              <input ref={file} type="file" accept=".xlf,.xliff,.po,.xml" hidden aria-label="Translated file" onChange={(e) => upload(e.target.files?.[0])} />
              <Button
                disabled={!validLang}
                loading={busy === 'machine'}
                onClick={() =>
                  run('machine', async () => {
                    const done = await translationsApi.machine(demo.id, lang.trim());
                    return `${done.lang}: ${done.translated} texts machine-translated${done.skipped.length ? `, ${done.skipped.length} skipped` : ''}. Review them before viewers see them.`;
                  })
                }
              >
                Machine-translate
              </Button>
            </>
          )}
        </div>
        <p className="muted translation-hint">
          Keep the markup and <code>{'{{variables}}'}</code> of each text. An upload takes the language from the file; a file of another demo, or one
          whose source texts changed since, is refused. New translations stay drafts until approved.
        </p>
      </section>
      {problem ? <Problem error={problem} /> : null}
      {languages.status === 'loading' ? <LoadingBlock label="Loading the languages…" /> : null}
      {languages.status === 'error' ? <LoadError error={languages.error} onRetry={languages.reload} /> : null}
      {languages.status === 'ready' && languages.data.length === 0 ? <p className="muted">No translations yet.</p> : null}
      {languages.status === 'ready' && languages.data.length > 0 ? (
        <ol className="version-list translation-languages" aria-label="Languages">
          {languages.data.map((t) => (
            <li key={t.lang} className="version-item">
              <div className="version-main">
                <div className="version-title">
                  <strong>{t.lang}</strong>
                  {t.status === 'reviewed' ? <Badge tone="success">Shown to viewers</Badge> : <Badge tone="warning">Draft</Badge>}
                </div>
                <div className="version-meta">
                  {t.units_translated} of {t.units_total} texts · {t.origin === 'machine' ? 'machine-translated' : t.origin === 'edit' ? 'edited' : 'imported'}{' '}
                  {formatDateTime(t.updated_at)}
                </div>
              </div>
              <div className="version-actions">
                <Button size="sm" onClick={() => setReviewing(t.lang)} aria-label={`Review ${t.lang}`}>
                  {readOnly ? 'Open' : 'Review'}
                </Button>
                <a className="btn btn-secondary btn-sm" href={translationsApi.exportUrl(demo.id, t.lang, format)} download aria-label={`Download ${t.lang}`}>
                  Download
                </a>
                {readOnly ? null : (
                  <Button size="sm" variant="ghost" onClick={() => setRemoving(t)} aria-label={`Remove ${t.lang}`}>
                    Remove
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ol>
      ) : null}
    </Dialog>
  );
}
