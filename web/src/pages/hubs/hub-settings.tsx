// The hub's page text and its gates, each a form of its own.
import { useState } from 'react';
import { type HubDetail, hubsApi } from '../../api/hubs.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { Checkbox } from '../../components/field';
import { useFormSubmit } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-text-field';
import { useToast } from '../../components/toast';

const LEAD_FIELDS = [
  { key: 'company', label: 'Company' },
  { key: 'job_title', label: 'Job title' },
  { key: 'phone', label: 'Phone' },
] as const;

const list = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((v) => v.trim())
    .filter(Boolean);

/** "2026-12-31T23:59" in the browser's zone, as a datetime-local input holds it. */
function localInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

export function HubPageForm({ hub, canEdit, onSaved }: { hub: HubDetail; canEdit: boolean; onSaved(): Promise<void> }) {
  const notify = useToast();
  const [title, setTitle] = useState(hub.title);
  const [intro, setIntro] = useState(hub.intro);
  const [ctaLabel, setCtaLabel] = useState(hub.cta_label ?? '');
  const [ctaUrl, setCtaUrl] = useState(hub.cta_url ?? '');
  const form = useFormSubmit({
    send: () =>
      hubsApi.update(hub.id, {
        title: title.trim(),
        intro,
        cta_label: ctaLabel.trim() || null,
        cta_url: ctaUrl.trim() || null,
      }),
    onDone: async () => {
      notify('Hub page saved');
      await onSaved();
    },
    staysOpen: true,
    failure: 'The page could not be saved.',
  });
  return (
    <form className="stack" onSubmit={form.submit} noValidate>
      {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
      <FormTextField form={form} name="title" label="Title" value={title} onValue={setTitle} disabled={!canEdit} />
      <FormTextField form={form} name="intro" label="Intro" optional value={intro} onValue={setIntro} disabled={!canEdit} />
      <div className="hub-two">
        <FormTextField form={form} name="cta_label" label="Button label" optional placeholder="Book a demo" value={ctaLabel} onValue={setCtaLabel} disabled={!canEdit} />
        <FormTextField form={form} name="cta_url" label="Button link" optional placeholder="https://…" value={ctaUrl} onValue={setCtaUrl} disabled={!canEdit} />
      </div>
      {canEdit ? (
        <div>
          <Button type="submit" variant="primary" loading={form.busy}>
            Save page
          </Button>
        </div>
      ) : null}
    </form>
  );
}

export function HubAccessForm({ hub, canEdit, onSaved }: { hub: HubDetail; canEdit: boolean; onSaved(): Promise<void> }) {
  const notify = useToast();
  const [password, setPassword] = useState('');
  const [removePassword, setRemovePassword] = useState(false);
  const [identify, setIdentify] = useState(hub.require_identification);
  const [leadFields, setLeadFields] = useState<string[]>(hub.lead_fields);
  const [emails, setEmails] = useState(hub.allowed_emails.join(', '));
  const [domains, setDomains] = useState(hub.allowed_domains.join(', '));
  const [expires, setExpires] = useState(localInput(hub.expires_at));
  const form = useFormSubmit({
    send: () =>
      hubsApi.update(hub.id, {
        ...(password ? { password } : removePassword ? { password: null } : {}),
        require_identification: identify,
        lead_fields: leadFields as ('company' | 'job_title' | 'phone')[],
        allowed_emails: list(emails),
        allowed_domains: list(domains),
        expires_at: expires ? new Date(expires).toISOString() : null,
      }),
    onDone: async () => {
      setPassword('');
      setRemovePassword(false);
      notify('Access saved: every demo of the hub asks the same');
      await onSaved();
    },
    staysOpen: true,
    failure: 'Access could not be saved.',
  });
  return (
    <form className="stack" onSubmit={form.submit} noValidate>
      {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
      <FormTextField
        form={form}
        name="password"
        type="password"
        autoComplete="new-password"
        label={hub.has_password ? 'New password' : 'Password'}
        optional
        hint={hub.has_password ? 'The hub has a password. A new one makes every viewer enter it again.' : 'Viewers enter it before they see any demo.'}
        value={password}
        onValue={setPassword}
        disabled={!canEdit}
      />
      {hub.has_password ? (
        <Checkbox label="Remove the password" checked={removePassword} onChange={(e) => setRemovePassword(e.target.checked)} disabled={!canEdit || password !== ''} />
      ) : null}
      <Checkbox
        label="Ask who the viewer is"
        description="Name and work e-mail, once for the whole hub."
        checked={identify || leadFields.length > 0}
        onChange={(e) => {
          setIdentify(e.target.checked);
          if (!e.target.checked) setLeadFields([]);
        }}
        disabled={!canEdit}
      />
      <fieldset className="hub-fieldset">
        <legend>Lead form: also ask for</legend>
        {LEAD_FIELDS.map((f) => (
          <Checkbox
            key={f.key}
            label={f.label}
            checked={leadFields.includes(f.key)}
            onChange={(e) => setLeadFields((now) => (e.target.checked ? [...now, f.key] : now.filter((k) => k !== f.key)))}
            disabled={!canEdit}
          />
        ))}
      </fieldset>
      <FormTextField form={form} name="allowed_domains" label="Allowed domains" optional hint="Only addresses at these domains may view, e.g. acme.com." value={domains} onValue={setDomains} disabled={!canEdit} />
      <FormTextField form={form} name="allowed_emails" label="Allowed addresses" optional value={emails} onValue={setEmails} disabled={!canEdit} />
      <FormTextField form={form} name="expires_at" type="datetime-local" label="Expires" optional value={expires} onValue={setExpires} disabled={!canEdit} />
      {canEdit ? (
        <div>
          <Button type="submit" variant="primary" loading={form.busy}>
            Save access
          </Button>
        </div>
      ) : null}
    </form>
  );
}
