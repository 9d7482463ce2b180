import { useState } from 'react';
import { WORKSPACE_NAME_MAX, type WorkspaceSettings, workspaceApi } from '../../api/workspace.api';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { TextField } from '../../components/field';
import { type FieldErrors, useFormSubmit } from '../../components/form-dialog';
import { useToast } from '../../components/toast';
import { useRefreshSession } from '../account/use-refresh-session';

export interface SectionProps {
  settings: WorkspaceSettings;
  canManage: boolean;
  onSaved(settings: WorkspaceSettings): Promise<WorkspaceSettings>;
}

export function WorkspaceNameSection({ settings, canManage, onSaved }: SectionProps) {
  const [name, setName] = useState(settings.name);
  const refresh = useRefreshSession();
  const notify = useToast();
  const form = useFormSubmit({
    validate: (): FieldErrors =>
      !name.trim()
        ? { name: 'Give the workspace a name' }
        : name.trim().length > WORKSPACE_NAME_MAX
          ? { name: `Names can be up to ${WORKSPACE_NAME_MAX} characters` }
          : {},
    send: () => workspaceApi.update({ name: name.trim() }),
    onDone: async (next) => {
      await onSaved(next);
      // The sidebar and the workspace switcher show the name from the session.
      await refresh();
      notify('Workspace renamed');
    },
    failure: 'The name could not be saved. Try again.',
    staysOpen: true,
  });
  return (
    <section className="card" aria-labelledby="workspace-heading">
      <div className="card-header">
        <h2 id="workspace-heading">Workspace</h2>
      </div>
      <div className="card-body">
        <form className="stack form-narrow" onSubmit={form.submit} noValidate>
          {form.formError ? <Alert tone="danger">{form.formError}</Alert> : null}
          <TextField
            label="Name"
            name="workspace-name"
            hint="Shown to your team, in invitations, and on your share pages and link previews."
            value={name}
            maxLength={WORKSPACE_NAME_MAX}
            readOnly={!canManage}
            onChange={(e) => {
              setName(e.target.value);
              form.clearError('name');
            }}
            error={form.errors.name}
          />
          <p className="muted small">
            Workspace ID <code>{settings.id}</code>
          </p>
          {canManage ? (
            <div>
              <Button type="submit" variant="primary" loading={form.busy} disabled={name.trim() === settings.name}>
                Save
              </Button>
            </div>
          ) : null}
        </form>
      </div>
    </section>
  );
}
