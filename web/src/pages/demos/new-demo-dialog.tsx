import { useState } from 'react';
import { Link } from 'react-router';
import { demosApi } from '../../api/demos.api';
import { LIMITS, withScheme } from '../../api/limits';
import type { CaptureModeChoice, DemoDetail } from '../../api/types';
import { Checkbox, SelectField, TextField } from '../../components/field';
import { FormDialog, useFormSubmit } from '../../components/form-dialog';
import '../../styles/recorder.css';

const CAPTURE_HINTS: Record<CaptureModeChoice, string> = {
  auto: 'The browser when this server has one, otherwise the page’s HTML.',
  chromium: 'Loads the page in a browser: screenshots, with each hotspot measured on the page.',
  html: 'Reads the page’s HTML without a browser: faster, but no screenshots and hotspots placed from the HTML alone.',
};

/**
 * "New demo": generated from a web address (or blank), with the recorder extension offered beside it for
 * what an address cannot reach (a product behind a sign-in).
 */
export function NewDemoDialog({ onClose, onCreated }: { onClose(): void; onCreated(demo: DemoDetail): void }) {
  const [title, setTitle] = useState('');
  const [url, setUrl] = useState('');
  const [generate, setGenerate] = useState(true);
  const [captureMode, setCaptureMode] = useState<CaptureModeChoice>('auto');
  const form = useFormSubmit({
    validate: (): Record<string, string> => (generate && !url.trim() ? { source_url: 'Enter the address of the page to start from.' } : {}),
    send: () =>
      demosApi.create({
        title: title.trim() || undefined,
        source_url: withScheme(url) || undefined,
        type: 'interactive',
        generate_with_ai: generate,
        ...(generate && captureMode !== 'auto' ? { capture_mode: captureMode } : {}),
      }),
    onDone: onCreated,
    failure: 'The demo could not be created.',
  });

  return (
    <FormDialog
      id="new-demo-form"
      title="New demo"
      description="Capture a page of your product and turn it into clickable steps, or start from a blank demo."
      onClose={onClose}
      submitLabel={generate ? 'Generate demo' : 'Create demo'}
      form={form}
    >
      <ul className="demo-paths" aria-label="Ways to make a demo">
        <li>
          <div className="demo-path" aria-current="true">
            <span className="demo-path-title">Generate from a web address</span>
            <span className="demo-path-text">For public pages: Demoshare captures the page and writes the steps.</span>
          </div>
        </li>
        <li>
          <Link className="demo-path" to="/recorder" onClick={onClose}>
            <span className="demo-path-title">Record with the browser extension</span>
            <span className="demo-path-text">For your product behind a sign-in: each click you make becomes a step.</span>
          </Link>
        </li>
      </ul>
      <TextField
        label="Page address"
        type="url"
        placeholder="https://app.example.com/dashboard"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        onBlur={() => setUrl(withScheme(url))}
        error={form.errors.source_url}
        optional={!generate}
      />
      <TextField
        label="Title"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        maxLength={LIMITS.demoTitle}
        error={form.errors.title}
        optional={generate}
        hint={`${generate ? 'Leave empty to use the page title. ' : ''}Up to ${LIMITS.demoTitle} characters.`}
      />
      <Checkbox
        label="Generate steps from the page"
        description="Demoshare captures the page and writes the steps for you. You can edit everything afterwards."
        checked={generate}
        onChange={(e) => setGenerate(e.target.checked)}
      />
      {generate ? (
        <SelectField
          label="Capture with"
          value={captureMode}
          onChange={(e) => setCaptureMode(e.target.value as CaptureModeChoice)}
          hint={CAPTURE_HINTS[captureMode]}
          error={form.errors.capture_mode}
        >
          <option value="auto">Automatic</option>
          <option value="chromium">Browser (Chromium)</option>
          <option value="html">HTML only</option>
        </SelectField>
      ) : null}
    </FormDialog>
  );
}
