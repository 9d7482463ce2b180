import { type FormEvent, useId, useState } from 'react';
import { ApiError } from '../../api/client';
import { demoFormatApi } from '../../api/demo-format.api';
import type { DemoDetail } from '../../api/types';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';
import '../../styles/export-demo-file.css';

/**
 * The Export dialog's "Demo file" section: download the demo as demo.json and its assets (docs/demo-format.md),
 * the draft or the published version, and the key `demoshare demos push` finds it by (set here when missing).
 */
export function ExportDemoFileSection({ demo }: { demo: DemoDetail }) {
  const titleId = useId();
  const canWrite = useCan()('demos.write');
  const published = demo.published_version !== null;
  const [version, setVersion] = useState<'draft' | 'published'>('draft');
  const key = useResource(() => demoFormatApi.key(demo.id));
  const [draftKey, setDraftKey] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | undefined>();

  async function saveKey(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    setError(undefined);
    try {
      await demoFormatApi.setKey(demo.id, draftKey.trim());
      await key.reload();
    } catch (err) {
      setError(err instanceof ApiError ? (err.fieldErrors().key ?? err.message) : 'The key could not be saved.');
    } finally {
      setSaving(false);
    }
  }

  const current = key.status === 'ready' ? key.data.key : null;
  const folder = current ?? 'my-demo';
  return (
    <section className="export-section demo-file-export" aria-labelledby={titleId}>
      <h3 id={titleId} className="export-section-title">
        Demo file
      </h3>
      <p className="export-section-text">
        The demo as <code>demo.json</code> with its screenshots and page snapshots, in a zip: keep it in a git repository, review
        changes like code, or import it into another Demoshare. The format is open:{' '}
        <a href={demoFormatApi.schemaUrl} target="_blank" rel="noreferrer">
          JSON Schema
        </a>
        .
      </p>
      <fieldset className="demo-file-version">
        <legend className="field-label">Content</legend>
        <label className="demo-file-choice">
          <input type="radio" name="demo-file-version" checked={version === 'draft'} onChange={() => setVersion('draft')} /> Draft (what you are editing)
        </label>
        <label className="demo-file-choice">
          <input
            type="radio"
            name="demo-file-version"
            checked={version === 'published'}
            disabled={!published}
            onChange={() => setVersion('published')}
          />{' '}
          {published ? `Published version ${demo.published_version}` : 'Published version (not published yet)'}
        </label>
      </fieldset>
      <div className="demo-file-actions">
        <a className="btn btn-primary" href={demoFormatApi.exportUrl(demo.id, version)} download>
          Download demo file
        </a>
      </div>
      <div className="demo-file-key">
        {key.status === 'loading' ? null : current ? (
          <>
            <p className="field-label">Key</p>
            <p className="demo-file-key-value">
              <code>{current}</code>
            </p>
            <p className="field-hint">
              A folder whose <code>demo.json</code> has this key updates this demo: <code>demoshare demos push ./demos/{folder}</code>
            </p>
          </>
        ) : canWrite ? (
          <form onSubmit={saveKey} className="demo-file-key-form">
            <TextField
              label="Key"
              optional
              value={draftKey}
              onChange={(e) => setDraftKey(e.target.value)}
              error={error}
              placeholder="onboarding"
              hint="Give the demo a key to update it from a folder in git with demoshare demos push (lowercase letters, digits, . _ -)."
            />
            <Button type="submit" loading={saving} disabled={draftKey.trim() === ''}>
              Set key
            </Button>
          </form>
        ) : (
          <p className="field-hint">This demo has no key: an editor can give it one to update it from a folder in git.</p>
        )}
      </div>
      <p className="field-hint">
        From a terminal: <code>demoshare demos export {demo.id} --out ./demos/{folder}</code>
      </p>
    </section>
  );
}
