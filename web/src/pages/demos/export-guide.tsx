import { useState } from 'react';
import { ApiError } from '../../api/client';
import { type GuideFormat, type GuideVersion, guidesApi, saveFile } from '../../api/guides.api';
import type { DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { SelectField } from '../../components/field';

/**
 * The Export dialog's "Written guide" section: the steps as a help-centre article, Markdown (a zip with the
 * marked screenshots) or PDF, from the draft or the published version (docs/guides.md).
 */
export function ExportGuideSection({ demo }: { demo: DemoDetail }) {
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
    <section className="card" aria-labelledby="export-guide-title">
      <div className="card-header">
        <h3 id="export-guide-title">Written guide</h3>
        <p className="muted">
          The steps as a how-to article for your help centre: each screenshot with its hotspot marked and the step’s text under it.
        </p>
      </div>
      <div className="card-body stack">
        <div className="row row-wrap">
          <SelectField label="Format" value={format} onChange={(e) => setFormat(e.target.value as GuideFormat)}>
            <option value="pdf">PDF document</option>
            <option value="markdown">Markdown with images (.zip)</option>
          </SelectField>
          <SelectField label="Version" value={version} onChange={(e) => setVersion(e.target.value as GuideVersion)}>
            <option value="draft">Draft (as in the editor)</option>
            <option value="published" disabled={published === null}>
              {published === null ? 'Published (not published yet)' : `Published (version ${published})`}
            </option>
          </SelectField>
        </div>
        {noSteps ? <p className="muted">Add a step to export a guide.</p> : null}
        {error ? <Alert tone="danger">{error}</Alert> : null}
        <div className="row">
          <Button variant="primary" loading={busy} disabled={noSteps} onClick={download}>
            {busy ? (format === 'pdf' ? 'Printing the PDF…' : 'Preparing the zip…') : 'Download guide'}
          </Button>
        </div>
      </div>
    </section>
  );
}
