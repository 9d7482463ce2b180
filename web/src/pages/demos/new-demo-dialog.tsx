import { useState } from 'react';
import { demosApi } from '../../api/demos.api';
import { LIMITS, withScheme } from '../../api/limits';
import type { DemoDetail } from '../../api/types';
import { Checkbox, TextField } from '../../components/field';
import { FormDialog, useFormSubmit } from '../../components/form-dialog';

/** "New demo": from a web address (generated) or blank. */
export function NewDemoDialog({ onClose, onCreated }: { onClose(): void; onCreated(demo: DemoDetail): void }) {
  const [title, setTitle] = useState('');
  const [url, setUrl] = useState('');
  const [generate, setGenerate] = useState(true);
  const form = useFormSubmit({
    validate: (): Record<string, string> => (generate && !url.trim() ? { source_url: 'Enter the address of the page to start from.' } : {}),
    send: () =>
      demosApi.create({
        title: title.trim() || undefined,
        source_url: withScheme(url) || undefined,
        type: 'interactive',
        generate_with_ai: generate,
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
    </FormDialog>
  );
}
