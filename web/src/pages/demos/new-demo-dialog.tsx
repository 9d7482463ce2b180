import { type FormEvent, useState } from 'react';
import { ApiError } from '../../api/client';
import { demosApi } from '../../api/demos.api';
import type { DemoDetail } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { Checkbox, TextField } from '../../components/field';

/** "New demo": from a web address (generated) or blank. */
export function NewDemoDialog({ onClose, onCreated }: { onClose(): void; onCreated(demo: DemoDetail): void }) {
  const [title, setTitle] = useState('');
  const [url, setUrl] = useState('');
  const [generate, setGenerate] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const fields = error?.fieldErrors() ?? {};

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const demo = await demosApi.create({
        title: title.trim() || undefined,
        source_url: url.trim() || undefined,
        type: 'interactive',
        generate_with_ai: generate,
      });
      onCreated(demo);
    } catch (err) {
      setError(err instanceof ApiError ? err : new ApiError(0, 'internal_error', 'The demo could not be created.'));
      setBusy(false);
    }
  }

  return (
    <Dialog
      title="New demo"
      description="Capture a page of your product and turn it into clickable steps, or start from a blank demo."
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="new-demo-form" loading={busy}>
            {generate ? 'Generate demo' : 'Create demo'}
          </Button>
        </>
      }
    >
      <form id="new-demo-form" className="stack" onSubmit={submit} noValidate>
        {error && !Object.keys(fields).length ? <Alert tone="danger">{error.message}</Alert> : null}
        <TextField
          label="Page address"
          type="url"
          placeholder="https://app.example.com/dashboard"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          error={fields.source_url}
          optional={!generate}
        />
        <TextField
          label="Title"
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          error={fields.title}
          optional={generate}
          hint={generate ? 'Leave empty to use the page title.' : undefined}
        />
        <Checkbox
          label="Generate steps from the page"
          description="Demoshare captures the page and writes the steps for you. You can edit everything afterwards."
          checked={generate}
          onChange={(e) => setGenerate(e.target.checked)}
        />
      </form>
    </Dialog>
  );
}
