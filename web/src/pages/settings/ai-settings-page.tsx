import { useState } from 'react';
import { type AiSettings, type AiTestResult, aiApi } from '../../api/ai.api';
import { ApiError } from '../../api/client';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { TextField } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';
import { useCan } from '../../session/use-can';

/** Settings → AI: the workspace's own model for generation and the editor's Rewrite (admins only). */
export function AiSettingsPage() {
  const allowed = useCan();
  if (!allowed('ai.manage')) {
    return <Alert tone="info">Only admins of this workspace can set up AI writing. Ask one to add a model in Settings → AI.</Alert>;
  }
  return <AiSettingsForAdmins />;
}

function AiSettingsForAdmins() {
  const settings = useResource(() => aiApi.get());
  return (
    <div className="stack">
      {settings.status === 'loading' ? <LoadingBlock /> : null}
      {settings.status === 'error' ? <LoadError error={settings.error} onRetry={settings.reload} /> : null}
      {settings.status === 'ready' ? <AiSettingsForm settings={settings.data} onSaved={settings.reload} /> : null}
    </div>
  );
}

/** What generation and Rewrite use now, in one sentence. */
function InUse({ settings }: { settings: AiSettings }) {
  if (settings.source === 'workspace') {
    return (
      <Alert tone="success" title="AI writing is on">
        Generation and Rewrite use <strong>{settings.model}</strong> at {hostOf(settings.base_url)}. When it fails, the built-in writer writes the steps.
      </Alert>
    );
  }
  if (settings.source === 'instance' && settings.instance) {
    return (
      <Alert tone="info" title="Using this server’s model">
        Generation and Rewrite use <strong>{settings.instance.model}</strong>, set up for the whole server by whoever runs it. Save a model
        below to use your own instead.
      </Alert>
    );
  }
  return (
    <Alert tone="info" title="AI writing is off">
      Steps are written by the built-in writer, and the editor’s Rewrite is unavailable. Add a model below to turn both on.
    </Alert>
  );
}

function AiSettingsForm({ settings, onSaved }: { settings: AiSettings; onSaved(): Promise<void> }) {
  const [baseUrl, setBaseUrl] = useState(settings.base_url ?? '');
  const [model, setModel] = useState(settings.model ?? '');
  const [key, setKey] = useState('');
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<AiTestResult | { ok: false; error: string } | null>(null);
  const [removing, setRemoving] = useState(false);
  const notify = useToast();
  const values = () => ({ base_url: baseUrl.trim(), model: model.trim(), ...(key.trim() ? { key: key.trim() } : {}) });

  const form = useFormSubmit({
    validate: () => {
      const problems: Record<string, string> = {};
      if (!baseUrl.trim()) problems.base_url = 'Enter the address of the API, such as https://api.openai.com/v1';
      if (!model.trim()) problems.model = 'Enter the model name, such as gpt-4o-mini';
      if (!key.trim() && !settings.key_set) problems.key = 'Enter the API key';
      return problems;
    },
    send: () => aiApi.save(values()),
    onDone: async () => {
      setKey('');
      await onSaved();
      notify('AI settings saved');
    },
    failure: 'The settings could not be saved. Try again.',
    staysOpen: true,
  });

  async function test() {
    setTesting(true);
    setResult(null);
    try {
      // The form as it is: fields left empty come from the saved settings on the server.
      const typed = values();
      const body = Object.fromEntries(Object.entries(typed).filter(([, v]) => v));
      setResult(await aiApi.test(body));
    } catch (err) {
      setResult({ ok: false, error: err instanceof ApiError ? err.message : 'The test could not run. Try again.' });
    } finally {
      setTesting(false);
    }
  }

  return (
    <>
      <InUse settings={settings} />
      <section className="card" aria-labelledby="ai-model-heading">
        <div className="card-header">
          <h2 id="ai-model-heading">Your AI model</h2>
          <p className="muted">
            Any OpenAI-compatible chat API: OpenAI, Azure OpenAI, Mistral, Groq, OpenRouter, or a model you run yourself (Ollama, vLLM, LM Studio).
            It writes the steps of new demos and suggests better words when an editor clicks Rewrite on a step.
          </p>
        </div>
        <div className="card-body">
          <form className="stack form-narrow" onSubmit={form.submit} noValidate aria-label="AI model">
            {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
            <TextField
              label="Base URL"
              name="base_url"
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://api.openai.com/v1"
              value={baseUrl}
              error={form.errors.base_url}
              hint="The address before /chat/completions. A model on your own network needs the server’s operator to allow its address."
              onChange={(e) => {
                setBaseUrl(e.target.value);
                form.clearError('base_url');
              }}
            />
            <TextField
              label="Model"
              name="model"
              autoComplete="off"
              placeholder="gpt-4o-mini"
              value={model}
              error={form.errors.model}
              onChange={(e) => {
                setModel(e.target.value);
                form.clearError('model');
              }}
            />
            <TextField
              label="API key"
              name="key"
              type="password"
              autoComplete="new-password"
              placeholder={settings.key_set ? `Saved key ending in ${settings.key_last4}` : 'sk-…'}
              value={key}
              error={form.errors.key}
              hint={
                settings.key_set
                  ? 'Stored encrypted and never shown again. Leave empty to keep the saved key; a new address needs the key again.'
                  : 'Stored encrypted and never shown again.'
              }
              onChange={(e) => {
                setKey(e.target.value);
                form.clearError('key');
              }}
            />
            {result ? (
              result.ok ? (
                <Alert tone="success" title="Connected">
                  {'model' in result && result.model ? result.model : 'The model'} answered in {'latency_ms' in result ? result.latency_ms : 0} ms.
                </Alert>
              ) : (
                <Alert tone="danger" title="The model did not answer">
                  {result.error}
                </Alert>
              )
            ) : null}
            <div className="row">
              <Button type="submit" variant="primary" loading={form.busy}>
                Save
              </Button>
              <Button onClick={test} loading={testing} disabled={form.busy}>
                Test connection
              </Button>
              {settings.key_set ? (
                <Button variant="ghost" onClick={() => setRemoving(true)} disabled={form.busy}>
                  Remove
                </Button>
              ) : null}
            </div>
          </form>
        </div>
      </section>
      {removing ? (
        <ConfirmDialog
          title="Remove your AI model?"
          confirmLabel="Remove"
          danger
          onClose={() => setRemoving(false)}
          onConfirm={async () => {
            await aiApi.remove();
            setRemoving(false);
            setBaseUrl('');
            setModel('');
            setResult(null);
            await onSaved();
            notify('AI settings removed');
          }}
        >
          The key is deleted. New demos are written by {settings.instance ? 'this server’s model' : 'the built-in writer'}
          {settings.instance ? '' : ', and Rewrite is unavailable'}.
        </ConfirmDialog>
      ) : null}
    </>
  );
}

function hostOf(url: string | null): string {
  try {
    return url ? new URL(url).host : '';
  } catch {
    return url ?? '';
  }
}
