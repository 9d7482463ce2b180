import { type ReactNode, useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import type { Permission } from '../api/types';
import { useSession } from '../session/session-context';
import { useCan } from '../session/use-can';
import { ChartIcon, CloseIcon, GridIcon, MailIcon, MenuIcon, PlayIcon, SettingsIcon, UsersIcon } from '../components/icons';
import { Brand } from './brand';
import { VerifyBanner } from './verify-banner';
import { UserMenu } from './user-menu';

// Each entry names what its page needs, so that a role that could not use a page does not see it.
const NAV: { to: string; label: string; icon: ReactNode; permission: Permission }[] = [
  { to: '/demos', label: 'Demos', icon: <PlayIcon />, permission: 'demos.read' },
  { to: '/hubs', label: 'Hubs', icon: <GridIcon />, permission: 'shares.read' },
  { to: '/analytics', label: 'Analytics', icon: <ChartIcon />, permission: 'analytics.read' },
  { to: '/leads', label: 'Leads', icon: <MailIcon />, permission: 'leads.read' },
  { to: '/team', label: 'Team', icon: <UsersIcon />, permission: 'team.read' },
  { to: '/settings', label: 'Settings', icon: <SettingsIcon />, permission: 'account.read' },
];

/** The signed-in frame: a sidebar on wide screens, a top bar with a drawer on narrow ones. */
export function AppLayout() {
  const session = useSession();
  const allowed = useCan();
  const [navOpen, setNavOpen] = useState(false);
  const location = useLocation();

  // Following a link closes the drawer: adjusted during render, as React advises for derived state.
  const [shownPath, setShownPath] = useState(location.pathname);
  if (shownPath !== location.pathname) {
    setShownPath(location.pathname);
    setNavOpen(false);
  }

  useEffect(() => {
    if (!navOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && setNavOpen(false);
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [navOpen]);

  return (
    <div className={`shell${navOpen ? ' shell-nav-open' : ''}`}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Brand />
        <button
          type="button"
          className="icon-button topbar-toggle"
          aria-expanded={navOpen}
          aria-controls="sidebar"
          aria-label={navOpen ? 'Close navigation' : 'Open navigation'}
          onClick={() => setNavOpen((open) => !open)}
        >
          {navOpen ? <CloseIcon size={20} /> : <MenuIcon size={20} />}
        </button>
      </header>
      {/* The aside is the full-height column (surface and border down the whole page); its inner part sticks
          to the window, so the navigation stays at the top of it and the user menu at its foot. */}
      <aside className="sidebar" id="sidebar">
        <div className="sidebar-inner">
          <div className="sidebar-brand">
            <Brand />
          </div>
          <nav className="nav" aria-label="Main">
            {NAV.filter((item) => allowed(item.permission)).map((item) => (
              <NavLink key={item.to} to={item.to} className="nav-link">
                {item.icon}
                <span>{item.label}</span>
              </NavLink>
            ))}
          </nav>
          <UserMenu />
        </div>
      </aside>
      {navOpen ? <button type="button" className="scrim" aria-label="Close navigation" tabIndex={-1} onClick={() => setNavOpen(false)} /> : null}
      <main className="main" id="main" tabIndex={-1}>
        {session.user.email_verified ? null : <VerifyBanner email={session.user.email} />}
        <div className="content">
          {/* Keyed by workspace so a switch remounts the page and nothing of the previous workspace lingers. */}
          <Outlet key={session.workspace.id} />
        </div>
      </main>
    </div>
  );
}
