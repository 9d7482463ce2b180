import { Link } from 'react-router';
import { Badge } from '../../components/badge';
import { formatDate } from '../../lib/format';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '../../lib/roles';
import { useSession } from '../../session/session-context';

export function WorkspaceSettingsPage() {
  const session = useSession();
  const { workspace, user } = session;
  return (
    <div className="stack">
      <section className="card">
        <div className="card-header">
          <h2>Workspace</h2>
        </div>
        <dl className="details">
          <div>
            <dt>Name</dt>
            <dd>{workspace.name}</dd>
          </div>
          <div>
            <dt>Workspace ID</dt>
            <dd className="mono">{workspace.id}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{formatDate(workspace.created_at)}</dd>
          </div>
        </dl>
      </section>
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
        </dl>
      </section>
    </div>
  );
}
