import { useResource } from '../../lib/use-resource';
import { DEFAULT_BRAND_COLOR, workspaceApi } from '../../api/workspace.api';
import { LIMITS } from '../../api/limits';
import { useEffect, useState } from 'react';
import { useSavedText } from './use-draft-backup';
import type { HotspotPatch, StepPatch } from '../../api/demos.api';
import type { Chapter, DemoConfiguration, Hotspot, Step } from '../../api/types';
import { ActionPicker } from './action-picker';
import { RichTextField, textToHtml } from './rich-text';
import { actionOf, KIND_NAMES, storyOf, tooltipHtmlOf } from './story';
import { VariableMenu } from './story-text';
import { Button } from '../../components/button';
import { Checkbox, SelectField, TextField } from '../../components/field';
import { StepRewrite } from './step-rewrite';

/** Says that text typed before a reload was brought back, with a way to drop it. */
function RestoredNotice({ fields }: { fields: ReturnType<typeof useSavedText>[] }) {
  const restored = fields.filter((f) => f.restored);
  if (restored.length === 0) return null;
  return (
    <p className="draft-notice" role="status">
      Text you had not saved was brought back. It is saved when you leave the field.{' '}
      <button type="button" className="link-button" onClick={() => {
          for (const f of restored) f.discard();
        }}
      >
        Discard it
      </button>
    </p>
  );
}

export function StepPanel({
  step,
  demoId,
  readOnly,
  chapters,
  onSave,
  onSaveStory,
}: {
  step: Step;
  demoId: string;
  readOnly: boolean;
  chapters: Chapter[];
  onSave(patch: { title?: string; description?: string }): void;
  onSaveStory(patch: StepPatch): void;
}) {
  const story = storyOf(step);
  const title = useSavedText(step.title, (t) => onSave({ title: t }), `${demoId}:${step.id}:title`);
  const description = useSavedText(step.description, (t) => onSave({ description: t }), `${demoId}:${step.id}:description`);
  // Plain text in a text area until the author asks for formatting (or the step already has some).
  const [formatting, setFormatting] = useState(false);
  const rich = formatting || story.description_html !== null || story.kind !== 'page';
  return (
    <section className="panel" aria-label="Step">
      <h2 className="panel-title">
        Step {step.number}
        {story.kind !== 'page' ? <span className="story-kind-badge">{KIND_NAMES[story.kind]}</span> : null}
      </h2>
      <RestoredNotice fields={[title, description]} />
      <div className="field">
        <div className="story-text-label">
          <label className="field-label" htmlFor={`title-${step.id}`}>
            Step title
          </label>
          {readOnly ? null : <VariableMenu onInsert={(token) => onSave({ title: `${title.field.value}${title.field.value ? ' ' : ''}${token}` })} />}
        </div>
        <input
          id={`title-${step.id}`}
          className="input"
          readOnly={readOnly}
          maxLength={LIMITS.stepTitle}
          {...title.field}
          onKeyDown={(e) => e.key === 'Enter' && e.currentTarget.blur()}
        />
      </div>
      {rich ? (
        <RichTextField
          label="Step description"
          html={story.description_html ?? (step.description ? textToHtml(step.description) : '')}
          readOnly={readOnly}
          onCommit={(html) => onSaveStory({ description_html: html || null, ...(html ? {} : { description: '' }) })}
        />
      ) : (
        <div className="field">
          <div className="story-text-label">
            <label className="field-label" htmlFor={`desc-${step.id}`}>
              Step description
            </label>
            {readOnly ? null : (
              <button type="button" className="link-button" onClick={() => setFormatting(true)}>
                Format text
              </button>
            )}
          </div>
          <textarea id={`desc-${step.id}`} className="input textarea" rows={4} readOnly={readOnly} maxLength={LIMITS.stepDescription} {...description.field} />
        </div>
      )}
      <SelectField
        label="Chapter"
        disabled={readOnly}
        value={story.chapter_id ?? ''}
        hint={chapters.length === 0 ? 'Create chapters in the Chapters panel.' : undefined}
        onChange={(e) => onSaveStory({ chapter_id: e.target.value || null })}
      >
        <option value="">No chapter</option>
        {chapters.map((c) => (
          <option key={c.id} value={c.id}>
            {c.title}
          </option>
        ))}
      </SelectField>
      {story.kind === 'page' ? <StepRewrite demoId={demoId} step={step} readOnly={readOnly} onApply={onSave} /> : null}
      {step.page_url ? (
        <p className="cell-sub">
          Captured from <a href={step.page_url}>{step.page_url}</a>
        </p>
      ) : null}
    </section>
  );
}

export function HotspotPanel({
  hotspot,
  demoId,
  steps,
  chapters,
  allowSubmit,
  readOnly,
  onSave,
  onDelete,
}: {
  hotspot: Hotspot;
  demoId: string;
  steps: Step[];
  chapters: Chapter[];
  allowSubmit: boolean;
  readOnly: boolean;
  onSave(patch: HotspotPatch): void;
  onDelete(): void;
}) {
  const label = useSavedText(hotspot.label, (t) => onSave({ label: t }), `${demoId}:${hotspot.id}:label`);
  const tooltipHtml = tooltipHtmlOf(hotspot);
  return (
    <section className="panel" aria-label="Hotspot">
      <h2 className="panel-title">Hotspot</h2>
      <RestoredNotice fields={[label]} />
      <TextField label="Label" readOnly={readOnly} {...label.field} />
      <RichTextField
        label="Tooltip"
        html={tooltipHtml ?? (hotspot.tooltip ? textToHtml(hotspot.tooltip) : '')}
        readOnly={readOnly}
        onCommit={(html) => onSave(html ? { tooltip_html: html } : { tooltip_html: null, tooltip: '' })}
      />
      <ActionPicker value={actionOf(hotspot)} steps={steps} chapters={chapters} allowSubmit={allowSubmit} readOnly={readOnly} onChange={(action) => onSave({ action })} />
      <p className="cell-sub">Arrow keys move it, Shift with the arrow keys resizes it.</p>
      {hotspot.selector ? (
        <p className="cell-sub">Placed on its element of the page snapshot. Moving or resizing it keeps it where you put it.</p>
      ) : (
        <p className="cell-sub">
          Position {Math.round(hotspot.x * 100)}%, {Math.round(hotspot.y * 100)}% · size {Math.round(hotspot.width * 100)}% × {Math.round(hotspot.height * 100)}%
        </p>
      )}
      {readOnly ? null : (
        <Button size="sm" variant="ghost" className="btn-danger-text" onClick={onDelete}>
          Delete hotspot
        </Button>
      )}
    </section>
  );
}

/** What the settings panel changes; nested objects may be partial, as the API's PATCH takes them. */
export interface ConfigurationChange {
  /** null: follow the workspace's brand colour again. */
  theme_color?: string | null;
  progress_bar?: boolean;
  call_to_action?: { label: string; url: string } | null;
  navigation?: Partial<DemoConfiguration['navigation']>;
  branding?: Partial<DemoConfiguration['branding']>;
  autoplay?: Partial<DemoConfiguration['autoplay']>;
}

export function ConfigurationPanel({
  configuration,
  readOnly,
  onSave,
}: {
  configuration: DemoConfiguration;
  readOnly: boolean;
  onSave(patch: ConfigurationChange): void;
}) {
  const [cta, setCta] = useState({ label: configuration.call_to_action?.label ?? '', url: configuration.call_to_action?.url ?? '' });
  useEffect(() => setCta({ label: configuration.call_to_action?.label ?? '', url: configuration.call_to_action?.url ?? '' }), [configuration.call_to_action]);
  const ctaChanged = cta.label !== (configuration.call_to_action?.label ?? '') || cta.url !== (configuration.call_to_action?.url ?? '');
  // A demo without a colour of its own shows its workspace's: when they match, it follows the brand.
  const workspace = useResource(() => workspaceApi.get());
  const brand = workspace.data ? (workspace.data.branding.brand_color ?? DEFAULT_BRAND_COLOR) : null;
  const followsBrand = brand !== null && brand.toLowerCase() === configuration.theme_color.toLowerCase();
  return (
    <section className="panel" aria-label="Settings">
      <h2 className="panel-title">Player settings</h2>
      <div className="field">
        <label className="field-label" htmlFor="theme-color">
          Theme colour
        </label>
        <div className="row">
          <input
            id="theme-color"
            type="color"
            className="color-input"
            disabled={readOnly}
            value={configuration.theme_color}
            aria-describedby="theme-color-hint"
            onChange={(e) => onSave({ theme_color: e.target.value })}
          />
          {!readOnly && brand !== null && !followsBrand ? (
            <Button size="sm" variant="ghost" onClick={() => onSave({ theme_color: null })}>
              Use workspace colour
            </Button>
          ) : null}
        </div>
        <p className="field-hint" id="theme-color-hint">
          {followsBrand ? 'The workspace’s brand colour (Settings → Workspace).' : 'This demo’s own colour.'}
        </p>
      </div>
      <Checkbox label="Show a progress bar" disabled={readOnly} checked={configuration.progress_bar} onChange={(e) => onSave({ progress_bar: e.target.checked })} />
      <Checkbox
        label="Back and next buttons"
        disabled={readOnly}
        checked={configuration.navigation.buttons}
        onChange={(e) => onSave({ navigation: { buttons: e.target.checked } })}
      />
      <Checkbox
        label="Arrow keys move between steps"
        disabled={readOnly}
        checked={configuration.navigation.keyboard}
        onChange={(e) => onSave({ navigation: { keyboard: e.target.checked } })}
      />
      <Checkbox
        label="Show the “Made with Demoshare” badge"
        disabled={readOnly}
        checked={configuration.branding.show_badge}
        onChange={(e) => onSave({ branding: { show_badge: e.target.checked } })}
      />
      <Checkbox
        label="Play by itself"
        description="Moves to the next step after a delay."
        disabled={readOnly}
        checked={configuration.autoplay.enabled}
        onChange={(e) => onSave({ autoplay: { enabled: e.target.checked } })}
      />
      {configuration.autoplay.enabled ? (
        <SelectField
          label="Seconds on each step"
          disabled={readOnly}
          value={String(configuration.autoplay.delay_seconds)}
          onChange={(e) => onSave({ autoplay: { delay_seconds: Number(e.target.value) } })}
        >
          {[...new Set([2, 3, 5, 8, 10, 15, 20, 30, 45, 60, configuration.autoplay.delay_seconds])]
            .sort((a, b) => a - b)
            .map((n) => (
              <option key={n} value={n}>
                {n} seconds
              </option>
            ))}
        </SelectField>
      ) : null}
      <TextField label="End button label" optional readOnly={readOnly} value={cta.label} onChange={(e) => setCta({ ...cta, label: e.target.value })} />
      <TextField label="End button address" optional type="url" readOnly={readOnly} value={cta.url} onChange={(e) => setCta({ ...cta, url: e.target.value })} />
      {readOnly ? null : (
        <Button
          size="sm"
          disabled={!ctaChanged}
          onClick={() => onSave({ call_to_action: cta.label.trim() && cta.url.trim() ? { label: cta.label.trim(), url: cta.url.trim() } : null })}
        >
          Save end button
        </Button>
      )}
    </section>
  );
}
