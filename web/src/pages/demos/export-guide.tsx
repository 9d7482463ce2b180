import { useId, useState } from 'react';
import { ApiError } from '../../api/client';
import { type GuideFormat, type GuideVersion, guidesApi, saveFile } from '../../api/guides.api';
import type { DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import '../../styles/export-guide.css';

/**
 * The Export dialog's "Written guide" section: the steps as a help-centre article, PDF or Markdown (a zip with
 * the marked screenshots), from the draft or the published version (docs/guides.md).
 */
export function ExportGuideSection({ demo }: { demo: DemoDetail }) {
  const titleId = useId();
  const published = demo.published_version;
  const [format, setFormat] = useState<GuideFormat>('pdf');
  const [version, setVersion] = useState<GuideVersion>(published !== null && !demo.has_unpublished_changes ? 'published' : 'draft');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const noSteps = demo.steps.length === 0;

  async function download() {
    setBusy(true);
    setError(null);
    try {
      saveFile(await guidesApi.download(demo.id, format, version));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'The guide could not be made. Try again in a moment.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="export-guide" aria-labelledby={titleId}>
      <h3 id={titleId} className="export-guide-title">
        Written guide
      </h3>
      <p className="muted export-guide-text">
        The steps as a how-to article for your help centre: each screenshot with its hotspot marked and the step’s text under it.
      </p>
      <div className="export-guide-choices">
        <fieldset className="export-guide-choice">
          <legend className="field-label">Format</legend>
          <label>
            <input type="radio" name="guide-format" checked={format === 'pdf'} onChange={() => setFormat('pdf')} /> PDF document
          </label>
          <label>
            <input type="radio" name="guide-format" checked={format === 'markdown'} onChange={() => setFormat('markdown')} /> Markdown with
            images (.zip)
          </label>
        </fieldset>
        <fieldset className="export-guide-choice">
          <legend className="field-label">Content</legend>
          <label>
            <input type="radio" name="guide-version" checked={version === 'draft'} onChange={() => setVersion('draft')} /> Draft (what you are
            editing)
          </label>
          <label>
            <input
              type="radio"
              name="guide-version"
              checked={version === 'published'}
              disabled={published === null}
              onChange={() => setVersion('published')}
            />{' '}
            {published === null ? 'Published version (not published yet)' : `Published version ${published}`}
          </label>
        </fieldset>
      </div>
      {error ? <Alert tone="danger">{error}</Alert> : null}
      <div className="export-guide-actions">
        <Button variant="primary" loading={busy} disabled={noSteps} onClick={download}>
          {busy ? (format === 'pdf' ? 'Printing the PDF…' : 'Preparing the zip…') : 'Download guide'}
        </Button>
        {noSteps ? <span className="muted">Add a step to export a guide.</span> : null}
      </div>
    </section>
  );
}
