import { NavLink, Outlet } from 'react-router';
import { PageHeader } from '../../components/page-header';

export function SettingsLayout() {
  return (
    <>
      <PageHeader title="Settings" description="Your workspace and how other systems connect to it." />
      <nav className="tabs" aria-label="Settings">
        <NavLink to="/settings/workspace" className="tab">
          Workspace
        </NavLink>
        <NavLink to="/settings/api/keys" className="tab">
          API keys
        </NavLink>
        <NavLink to="/settings/api/oauth" className="tab">
          OAuth apps
        </NavLink>
        <NavLink to="/settings/webhooks" className="tab">
          Webhooks
        </NavLink>
      </nav>
      <Outlet />
    </>
  );
}
