import { useLayoutEffect, useRef } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { PageHeader } from '../../components/page-header';
import { useCan } from '../../session/use-can';

export function SettingsLayout() {
  const tabs = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const allowed = useCan();

  // Where the tabs do not all fit (a very narrow phone), the bar scrolls: it starts at its beginning and moves
  // only as far as it takes to show the active tab whole.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the active tab changes with the path
  useLayoutEffect(() => {
    tabs.current?.querySelector('.tab.active')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);

  return (
    <>
      <PageHeader title="Settings" description="Your workspace and how other systems connect to it." />
      <nav className="tabs" aria-label="Settings" ref={tabs}>
        <NavLink to="/settings/workspace" className="tab">
          Workspace
        </NavLink>
        {allowed('ai.manage') ? (
          <NavLink to="/settings/ai" className="tab">
            AI
          </NavLink>
        ) : null}
        <NavLink to="/settings/api/keys" className="tab">
          API keys
        </NavLink>
        {allowed('oauth_apps.manage') ? (
          <NavLink to="/settings/api/oauth" className="tab" aria-label="OAuth apps">
            <span className="tab-long" aria-hidden="true">
              OAuth apps
            </span>
            <span className="tab-short" aria-hidden="true">
              OAuth
            </span>
          </NavLink>
        ) : null}
        {allowed('webhooks.manage') ? (
          <NavLink to="/settings/webhooks" className="tab">
            Webhooks
          </NavLink>
        ) : null}
        {allowed('slack.manage') ? (
          <NavLink to="/settings/slack" className="tab">
            Slack
          </NavLink>
        ) : null}
        {allowed('crm.manage') ? (
          <NavLink to="/settings/hubspot" className="tab">
            HubSpot
          </NavLink>
        ) : null}
        {allowed('audit.read') ? (
          // "Audit" (and "OAuth") on phones, so that an admin's eight tabs wrap into fewer rows on a 390 px screen; named in full for assistive tech.
          <NavLink to="/settings/audit-log" className="tab" aria-label="Audit log">
            <span className="tab-long" aria-hidden="true">
              Audit log
            </span>
            <span className="tab-short" aria-hidden="true">
              Audit
            </span>
          </NavLink>
        ) : null}
      </nav>
      <Outlet />
    </>
  );
}
