import { useState } from 'react';
import { aiApi, type StepSuggestion } from '../../api/ai.api';
import { ApiError } from '../../api/client';
import type { Step } from '../../api/types';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';

/**
 * The step's Rewrite: asks the workspace's AI model for a better title and text, shows the suggestion
 * beside the current words, and applies it through the editor's own save (so undo takes it back).
 */
export function StepRewrite({
  demoId,
  step,
  readOnly,
  onApply,
}: {
  demoId: string;
  step: Step;
  readOnly: boolean;
  onApply(patch: { title: string; description: string }): void;
}) {
  const [busy, setBusy] = useState(false);
  const [suggestion, setSuggestion] = useState<StepSuggestion | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (readOnly) return null;

  async function ask() {
    setBusy(true);
    setError(null);
    try {
      setSuggestion(await aiApi.rewriteStep(demoId, step.id));
    } catch (err) {
      setSuggestion(null);
      if (err instanceof ApiError && err.status === 409) setError('AI writing is not set up for this workspace: an admin can add a model in Settings → AI.');
      else setError(err instanceof ApiError ? err.message : 'The rewrite could not be asked for. Try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="stack step-rewrite" aria-live="polite">
      {suggestion ? (
        // Inline: the step panel is narrow, so the card keeps a small padding and its buttons wrap.
        <section className="card stack" aria-label="Suggested rewrite" style={{ padding: 'var(--space-3)', gap: 'var(--space-2)' }}>
          <p className="muted">Suggested by {suggestion.model}. Apply it, then edit as you like: Undo takes it back.</p>
            <p>
              <strong>{suggestion.title}</strong>
            </p>
            <p>{suggestion.description}</p>
            <div className="row" style={{ flexWrap: 'wrap' }}>
              <Button
                variant="primary"
                size="sm"
                onClick={() => {
                  onApply({ title: suggestion.title, description: suggestion.description });
                  setSuggestion(null);
                }}
              >
                Apply
              </Button>
              <Button size="sm" onClick={ask} loading={busy}>
                Try again
              </Button>
              <Button variant="ghost" size="sm" onClick={() => setSuggestion(null)} disabled={busy}>
                Discard
              </Button>
          </div>
        </section>
      ) : (
        <div>
          <Button size="sm" onClick={ask} loading={busy}>
            {busy ? 'Rewriting…' : 'Rewrite with AI'}
          </Button>
        </div>
      )}
      {error ? <Alert tone={/Settings → AI/.test(error) ? 'info' : 'danger'}>{error}</Alert> : null}
    </div>
  );
}
