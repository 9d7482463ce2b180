import { Link } from 'react-router';
import type { WorkspaceSettings } from '../../api/workspace.api';
import { workspaceApi } from '../../api/workspace.api';
import { Alert } from '../../components/alert';
import { Badge } from '../../components/badge';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { formatDate } from '../../lib/format';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '../../lib/roles';
import { useResource } from '../../lib/use-resource';
import { useSession } from '../../session/session-context';
import { useCan } from '../../session/use-can';
import { BrandingSection } from './branding-section';
import { DomainsSection } from './domains-section';
import { ShareDefaultsSection } from './share-defaults-section';
import { ViewerErasureSection } from './viewer-erasure-section';
import { WorkspaceNameSection } from './workspace-name-section';
import '../../styles/workspace.css';

/** The workspace's own settings (admins change them; everyone sees them) and the signed-in member's place in it. */
export function WorkspaceSettingsPage() {
  const { user, workspace } = useSession();
  const allowed = useCan();
  const canManage = allowed('workspace.manage');
  const settings = useResource(() => workspaceApi.get());
  const saved = (next: WorkspaceSettings) => settings.reload().then(() => next);

  return (
    <div className="stack">
      {!canManage ? (
        <Alert tone="info">Only admins of this workspace can change its settings. You can see them here.</Alert>
      ) : null}
      {settings.status === 'loading' ? <LoadingBlock /> : null}
      {settings.status === 'error' ? <LoadError error={settings.error} onRetry={settings.reload} /> : null}
      {settings.status === 'ready' ? (
        <>
          <WorkspaceNameSection settings={settings.data} canManage={canManage} onSaved={saved} />
          <BrandingSection settings={settings.data} canManage={canManage} onSaved={saved} />
          <ShareDefaultsSection settings={settings.data} canManage={canManage} onSaved={saved} />
        </>
      ) : null}
      {allowed('domains.manage') ? <DomainsSection /> : null}
      {allowed('viewers.erase') ? <ViewerErasureSection /> : null}
      <section className="card">
        <div className="card-header row row-between">
          <h2>Your account</h2>
          <Link to="/account">Manage your account</Link>
        </div>
        <dl className="details">
          <div>
            <dt>Name</dt>
            <dd>{user.name || '—'}</dd>
          </div>
          <div>
            <dt>E-mail</dt>
            <dd>{user.email}</dd>
          </div>
          <div>
            <dt>Role</dt>
            <dd className="row">
              <Badge tone="accent">{ROLE_LABELS[workspace.role]}</Badge>
              <span className="muted">{ROLE_DESCRIPTIONS[workspace.role]}</span>
            </dd>
          </div>
          <div>
            <dt>Workspace created</dt>
            <dd>{formatDate(workspace.created_at)}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
