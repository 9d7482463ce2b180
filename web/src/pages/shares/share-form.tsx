import { useState } from 'react';
import type { ApiError } from '../../api/client';
import { assetPath, demosApi } from '../../api/demos.api';
import { type NewShare, type Share, type ShareChange, sharesApi } from '../../api/shares.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Checkbox, SelectField, TextField } from '../../components/field';
import { LoadError } from '../../components/load-error';
import { type FieldErrors, useFormSubmit } from '../../components/form-dialog';
import { formatDate } from '../../lib/format';
import { formatVariables, parseVariables } from './share-variables';
import { useResource } from '../../lib/use-resource';

const EXPIRY_CHOICES = [
  { value: 'never', label: 'Never' },
  { value: '1', label: 'In 1 day' },
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: 'custom', label: 'On a date…' },
];
const DAY_MS = 86_400_000;

/** The chosen expiry as an instant; a picked date means the end of that day where the user is. */
function expiresAt(choice: string, customDate: string): string | null {
  if (choice === 'never') return null;
  if (choice === 'custom') return customDate ? new Date(`${customDate}T23:59:59.999`).toISOString() : null;
  return new Date(Date.now() + Number(choice) * DAY_MS).toISOString();
}

export interface ShareDefaults {
  require_identification: boolean;
  expires_in_days: number | null;
}

/** The expiry choice a workspace default of `days` makes: one of the presets, or that day picked. */
function startingExpiry(days: number | null): { choice: string; date: string } {
  if (days === null) return { choice: 'never', date: '' };
  if (EXPIRY_CHOICES.some((c) => c.value === String(days))) return { choice: String(days), date: '' };
  return { choice: 'custom', date: new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10) };
}

/** "a@x.com, b@y.com\nc@z.com" → three entries; people paste lists in every shape. */
const splitList = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((s) => s.trim().replace(/^@/, ''))
    .filter(Boolean);

/** The server names fields `allowed_emails.2`; show the message under the whole list. */
function fieldErrors(err: ApiError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(err.fieldErrors())) {
    const base = field.split('.')[0]!;
    const index = field.split('.')[1];
    // A variable's error names the variable (variables.<name>), a list's the entry's position.
    if (base === 'variables' && index !== undefined) out[base] ??= `${field.slice('variables.'.length)}: ${message}`;
    else out[base] ??= index === undefined ? message : `Entry ${Number(index) + 1}: ${message}`;
  }
  return out;
}

/**
 * A new link for `demoId`, or, given `share`, that link's settings. An edit sends what the form shows; the
 * password only when a new one is typed or the old one removed, and the expiry only when it changes.
 */
export function ShareForm({
  demoId,
  share,
  defaults,
  onSaved,
  onCancel,
}: {
  demoId: string;
  share?: Share;
  /** The workspace's share-link defaults: a new link starts from them. */
  defaults?: ShareDefaults;
  onSaved(share: Share): void;
  onCancel(): void;
}) {
  const initial = share ? null : startingExpiry(defaults?.expires_in_days ?? null);
  const [name, setName] = useState(share?.name ?? '');
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const [expiry, setExpiry] = useState(share ? (share.expires_at ? 'keep' : 'never') : initial!.choice);
  const [customDate, setCustomDate] = useState(initial?.date ?? '');
  const [identify, setIdentify] = useState(share?.require_identification ?? defaults?.require_identification ?? false);
  const [emails, setEmails] = useState(share?.allowed_emails.join('\n') ?? '');
  const [domains, setDomains] = useState(share?.allowed_domains.join('\n') ?? '');
  const [previewTitle, setPreviewTitle] = useState(share?.preview_title ?? '');
  const [previewText, setPreviewText] = useState(share?.preview_description ?? '');
  const [previewImage, setPreviewImage] = useState<string | null>(share?.preview_image_asset_id ?? null);
  const [showTitle, setShowTitle] = useState(share?.show_title_before_unlock ?? false);
  const [variablesText, setVariablesText] = useState(formatVariables(share?.variables ?? {}));
  const hasPassword = password !== '' || (share?.has_password === true && !removePassword);
  const expiryChoices = share?.expires_at
    ? [{ value: 'keep', label: `Unchanged: ${formatDate(share.expires_at)}` }, ...EXPIRY_CHOICES]
    : EXPIRY_CHOICES;
  const form = useFormSubmit({
    validate: (): FieldErrors => {
      const errors: FieldErrors = {};
      if (expiry === 'custom' && !customDate) errors.expires_at = 'Pick the day the link stops working';
      const parsed = parseVariables(variablesText);
      if ('error' in parsed) errors.variables = parsed.error;
      return errors;
    },
    send() {
      const parsed = parseVariables(variablesText);
      const variables = 'variables' in parsed ? parsed.variables : {};
      if (share) {
        const change: ShareChange = {
          name: name.trim(),
          require_identification: identify,
          allowed_emails: identify ? splitList(emails) : [],
          allowed_domains: identify ? splitList(domains) : [],
          preview_title: previewTitle.trim() || null,
          preview_description: previewText.trim() || null,
          preview_image_asset_id: previewImage,
          show_title_before_unlock: showTitle,
          variables,
        };
        if (expiry !== 'keep') change.expires_at = expiresAt(expiry, customDate);
        if (password) change.password = password;
        else if (removePassword) change.password = null;
        return sharesApi.update(share.id, change);
      }
      const body: NewShare = { require_identification: identify, expires_at: expiresAt(expiry, customDate) };
      if (name.trim()) body.name = name.trim();
      if (previewTitle.trim()) body.preview_title = previewTitle.trim();
      if (previewText.trim()) body.preview_description = previewText.trim();
      if (previewImage) body.preview_image_asset_id = previewImage;
      if (showTitle) body.show_title_before_unlock = true;
      if (Object.keys(variables).length > 0) body.variables = variables;
      if (password) body.password = password;
      if (identify) {
        body.allowed_emails = splitList(emails);
        body.allowed_domains = splitList(domains);
      }
      return sharesApi.create(demoId, body);
    },
    onDone: onSaved,
    failure: share ? 'The link could not be saved.' : 'The link could not be created.',
    fieldErrors: (err) => (err.details.length > 0 ? fieldErrors(err) : null),
  });
  const { errors, formError, busy, submit } = form;
  // An edited field's old error would be misleading until the next submit.
  const edit = (field: string, set: (value: string) => void) => (value: string) => {
    set(value);
    form.clearError(field);
  };

  return (
    <form className="stack share-form" onSubmit={submit} noValidate aria-label={share ? 'Edit share link' : 'New share link'}>
      <TextField
        label="Name"
        optional
        value={name}
        onChange={(e) => edit('name', setName)(e.target.value)}
        placeholder="Sent to Acme Corp"
        hint="Only your team sees it: it tells your links apart."
        error={errors.name}
        maxLength={100}
      />
      <div className="field-row">
        <TextField
          label={share?.has_password ? 'New password' : 'Password'}
          optional
          type="password"
          autoComplete="new-password"
          value={password}
          disabled={removePassword}
          onChange={(e) => edit('password', setPassword)(e.target.value)}
          hint={
            share?.has_password
              ? 'Leave it empty to keep the current one. A new one signs out everyone who unlocked the link.'
              : 'Viewers must enter it before the demo plays.'
          }
          error={errors.password}
          maxLength={200}
        />
        <SelectField label="Expires" value={expiry} onChange={(e) => setExpiry(e.target.value)} error={expiry === 'custom' ? undefined : errors.expires_at}>
          {expiryChoices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </SelectField>
      </div>
      {share?.has_password ? (
        <Checkbox
          label="Remove the password"
          description="Anyone with the link can play the demo again."
          checked={removePassword}
          onChange={(e) => {
            setRemovePassword(e.target.checked);
            if (e.target.checked) setPassword('');
          }}
        />
      ) : null}
      {expiry === 'custom' ? (
        <TextField
          label="Expiry date"
          type="date"
          value={customDate}
          min={new Date(Date.now() + DAY_MS).toISOString().slice(0, 10)}
          onChange={(e) => setCustomDate(e.target.value)}
          error={errors.expires_at}
        />
      ) : null}
      <Checkbox
        label="Ask viewers for their name and e-mail"
        description="You will see who watched in the access log and in analytics."
        checked={identify}
        onChange={(e) => setIdentify(e.target.checked)}
      />
      {identify ? (
        <div className="share-allow stack">
          <TextareaField
            label="Allowed e-mail addresses"
            hint="One per line or separated by commas. Leave both lists empty to let anyone in."
            value={emails}
            onChange={edit('allowed_emails', setEmails)}
            error={errors.allowed_emails}
            placeholder="ana@acme.com"
          />
          <TextareaField
            label="Allowed domains"
            hint="Everyone with an address at these domains, e.g. acme.com."
            value={domains}
            onChange={edit('allowed_domains', setDomains)}
            error={errors.allowed_domains}
            placeholder="acme.com"
          />
        </div>
      ) : null}
      {hasPassword ? (
        <Checkbox
          label="Show the demo’s title before the password"
          description="Off: viewers and link previews see only your workspace’s name until the password is entered."
          checked={showTitle}
          onChange={(e) => setShowTitle(e.target.checked)}
        />
      ) : null}
      <LinkPreviewFields
        demoId={demoId}
        title={previewTitle}
        text={previewText}
        image={previewImage}
        errors={errors}
        onTitle={edit('preview_title', setPreviewTitle)}
        onText={edit('preview_description', setPreviewText)}
        onImage={(id) => {
          setPreviewImage(id);
          form.clearError('preview_image_asset_id');
        }}
      />
      <TextareaField
        label="Personalisation"
        hint="Values for this link’s viewers, one per line: {{company}} in the demo shows Acme. URL parameters and form answers of the same name take precedence."
        value={variablesText}
        onChange={edit('variables', setVariablesText)}
        error={errors.variables}
        placeholder={'company = Acme\nfirst_name = Dana'}
      />
      {formError ? <Alert tone="danger">{formError}</Alert> : null}
      <div className="row row-end">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" loading={busy}>
          {share ? 'Save changes' : 'Create link'}
        </Button>
      </div>
    </form>
  );
}

function TextareaField(props: { label: string; hint: string; value: string; onChange(v: string): void; error?: string; placeholder?: string }) {
  const id = `share-${props.label.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <div className={`field${props.error ? ' field-invalid' : ''}`}>
      <label className="field-label" htmlFor={id}>
        {props.label}
        <span className="field-optional"> (optional)</span>
      </label>
      <textarea
        id={id}
        className="input share-textarea"
        rows={2}
        value={props.value}
        placeholder={props.placeholder}
        onChange={(e) => props.onChange(e.target.value)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={`${id}-hint${props.error ? ` ${id}-error` : ''}`}
      />
      {props.error ? (
        <p className="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      ) : null}
      <p className="field-hint" id={`${id}-hint`}>
        {props.hint}
      </p>
    </div>
  );
}

/** The asset id at the end of a step's image_url. */
const assetIdOf = (url: string | null) => (url ? (/ast_[A-Za-z0-9_-]+$/.exec(url)?.[0] ?? null) : null);

/**
 * How the link looks when pasted in a chat, an e-mail or a social app (Open Graph and Twitter card), also
 * when it is protected: a title, a line of text and one of the demo's screenshots, all optional.
 */
function LinkPreviewFields(props: {
  demoId: string;
  title: string;
  text: string;
  image: string | null;
  errors: FieldErrors;
  onTitle(v: string): void;
  onText(v: string): void;
  onImage(id: string | null): void;
}) {
  const demo = useResource(() => demosApi.get(props.demoId));
  const shots = (demo.data?.steps ?? []).flatMap((step) => {
    const id = assetIdOf(step.image_url);
    return id ? [{ id, number: step.number, title: step.title, src: assetPath(step.image_url)! }] : [];
  });
  const custom = Boolean(props.title || props.text || props.image);
  return (
    <details className="share-preview" open={custom || undefined}>
      <summary>Link preview</summary>
      <p className="field-hint">What chat, e-mail and social apps show when the link is pasted. Left empty: the demo’s own title and first screenshot on an open link; your workspace’s name on a protected one.</p>
      <TextField
        label="Preview title"
        optional
        value={props.title}
        onChange={(e) => props.onTitle(e.target.value)}
        placeholder="A 2-minute tour of invoicing"
        error={props.errors.preview_title}
        maxLength={100}
      />
      <TextField
        label="Preview text"
        optional
        value={props.text}
        onChange={(e) => props.onText(e.target.value)}
        placeholder="See how Acme sends invoices in three clicks."
        error={props.errors.preview_description}
        maxLength={200}
      />
      <fieldset className="share-shots">
        <legend className="field-label">
          Preview image<span className="field-optional"> (optional)</span>
        </legend>
        <label className="share-shot share-shot-none">
          <input type="radio" name="preview-image" checked={props.image === null} onChange={() => props.onImage(null)} />
          <span>None</span>
        </label>
        {shots.map((shot) => (
          <label key={shot.id} className="share-shot">
            <input type="radio" name="preview-image" checked={props.image === shot.id} onChange={() => props.onImage(shot.id)} />
            <img src={shot.src} alt={`Step ${shot.number}: ${shot.title || 'untitled'}`} loading="lazy" />
          </label>
        ))}
        {demo.status === 'loading' ? <p className="field-hint">Loading the demo’s screenshots…</p> : null}
        {demo.status === 'error' ? <LoadError error={demo.error} onRetry={demo.reload} /> : null}
        {props.image && !shots.some((s) => s.id === props.image) ? (
          <label className="share-shot share-shot-none">
            <input type="radio" name="preview-image" checked onChange={() => props.onImage(props.image)} />
            <span>An earlier screenshot</span>
          </label>
        ) : null}
        {props.errors.preview_image_asset_id ? <p className="field-error">{props.errors.preview_image_asset_id}</p> : null}
      </fieldset>
    </details>
  );
}
