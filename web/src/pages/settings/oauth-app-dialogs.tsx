import { useState } from 'react';
import { oauthApi } from '../../api/oauth.api';
import type { CreatedOAuthApp, Scope } from '../../api/types';
import { Alert } from '../../components/alert';
import { CopyField } from '../../components/copy-field';
import { Checkbox, TextField } from '../../components/field';
import { type FieldErrors, FormDialog, useFormSubmit } from '../../components/form-dialog';
import { SecretReveal, SecretRevealDialog } from '../../components/secret-reveal';
import { ScopePicker } from './scope-picker';

export function CreateAppDialog({ onClose, onCreated }: { onClose(): void; onCreated(app: CreatedOAuthApp): void }) {
  const [name, setName] = useState('');
  const [redirects, setRedirects] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [isPublic, setPublic] = useState(false);
  const uris = redirects.split(/\s+/).filter(Boolean);
  const form = useFormSubmit({
    validate() {
      const problems: FieldErrors = {};
      if (!name.trim()) problems.name = 'Name the application your users will see';
      if (uris.length === 0) problems.redirect_uris = 'Give at least one redirect URI';
      if (scopes.length === 0) problems.scopes = 'Choose at least one scope';
      return problems;
    },
    send: () => oauthApi.createApp({ name: name.trim(), redirect_uris: uris, scopes, public: isPublic }),
    onDone: onCreated,
    failure: 'The app could not be registered.',
    fieldErrors(err) {
      if (err.details.length === 0) return null;
      // The server names the URI at fault (redirect_uris.1); the field is the whole list.
      const fields = err.fieldErrors();
      const redirectError = Object.entries(fields).find(([k]) => k.startsWith('redirect_uris'));
      return { ...fields, ...(redirectError ? { redirect_uris: redirectError[1] } : {}) };
    },
  });
  const { errors } = form;

  return (
    <FormDialog
      id="create-app-form"
      title="Register an OAuth app"
      description="Users will see its name when they are asked to allow access."
      size="lg"
      onClose={onClose}
      submitLabel="Register app"
      form={form}
    >
      <TextField label="Name" name="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} error={errors.name} />
      <TextField
        label="Redirect URIs"
        name="redirect_uris"
        hint="One or more, separated by spaces. https, or http on localhost; matched exactly."
        placeholder="https://app.example.com/oauth/callback"
        value={redirects}
        onChange={(e) => setRedirects(e.target.value)}
        error={errors.redirect_uris}
      />
      <ScopePicker value={scopes} onChange={setScopes} error={errors.scopes} />
      <Checkbox
        label="Public client (single-page or native app)"
        description="No client secret; PKCE (S256) is required."
        checked={isPublic}
        onChange={(e) => setPublic(e.target.checked)}
      />
    </FormDialog>
  );
}

/** After registration or a new secret: the client id, and the secret the only time it is shown. */
export function AppRevealDialog({ app, onClose }: { app: CreatedOAuthApp; onClose(): void }) {
  return (
    <SecretRevealDialog title={`${app.name} is registered`} description="Configure your application with these values." onClose={onClose}>
      <CopyField label="Client ID" value={app.client_id} />
      {app.client_secret ? (
        <SecretReveal warning="Copy the client secret now" secrets={[{ label: 'Client secret', value: app.client_secret }]}>
          You will not see it again: Demoshare stores only a fingerprint of it.
        </SecretReveal>
      ) : (
        <Alert tone="info">A public client has no secret: it must send a PKCE code_challenge (S256).</Alert>
      )}
    </SecretRevealDialog>
  );
}
