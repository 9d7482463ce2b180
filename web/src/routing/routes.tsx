import type { ReactElement } from 'react';
import { matchRoutes, Navigate, Outlet, type RouteObject } from 'react-router';
import { RequireSession } from '../layout/require-session';
import { RequirePermission } from '../session/require-permission';
import type { LazyPage } from './lazy-page';
import {
  AcceptInvitationPage,
  AccountPage,
  AnalyticsPage,
  ApiKeysPage,
  AppLayout,
  AiSettingsPage,
  HubSpotSettingsPage,
  AuditLogPage,
  ConsentPage,
  DemoAnalyticsPage,
  DemoEditorPage,
  DemosPage,
  ForgotPasswordPage,
  HubEditorPage,
  HubsPage,
  LeadsPage,
  LoginPage,
  NotFoundPage,
  OAuthAppsPage,
  RecorderPage,
  ResetPasswordPage,
  SettingsLayout,
  SignupPage,
  SlackSettingsPage,
  TeamPage,
  VerifyEmailPage,
  WebhookDetailPage,
  WebhooksPage,
  WorkspaceSettingsPage,
} from './pages';
import { RouteBoundary } from './route-boundary';

const WEBHOOKS_DENIED = 'Only admins manage webhooks. Ask an admin of this workspace to add one.';
const AUDIT_DENIED = 'Only workspace admins can read the audit log.';

/** A route showing `Page`, which it keeps as its handle so that a path can preload what it will show. */
function page(Page: LazyPage, wrap: (page: ReactElement) => ReactElement = (element) => element) {
  return { element: wrap(<Page />), handle: Page };
}

const webhooksOnly = (element: ReactElement) => (
  <RequirePermission permission="webhooks.manage" denied={WEBHOOKS_DENIED}>
    {element}
  </RequirePermission>
);

export const ROUTES: RouteObject[] = [
  { path: '/login', ...page(LoginPage) },
  { path: '/signup', ...page(SignupPage) },
  { path: '/invite/:token', ...page(AcceptInvitationPage) },
  { path: '/forgot-password', ...page(ForgotPasswordPage) },
  { path: '/reset-password/:token', ...page(ResetPasswordPage) },
  { path: '/verify-email/:token', ...page(VerifyEmailPage) },
  {
    element: <RequireSession />,
    children: [
      { path: '/oauth/authorize', ...page(ConsentPage) },
      {
        ...page(AppLayout),
        children: [
          {
            // Inside the shell: while a page loads, the navigation stays where it is.
            element: (
              <RouteBoundary>
                <Outlet />
              </RouteBoundary>
            ),
            children: [
              // A redirect's handle is the page it leads to, so that `/` preloads the demos.
              { index: true, element: <Navigate to="/demos" replace />, handle: DemosPage },
              { path: 'demos', ...page(DemosPage) },
              { path: 'demos/:id', ...page(DemoEditorPage) },
              { path: 'demos/:id/analytics', ...page(DemoAnalyticsPage) },
              { path: 'recorder', ...page(RecorderPage) },
              { path: 'analytics', ...page(AnalyticsPage) },
              { path: 'hubs', ...page(HubsPage) },
              { path: 'hubs/:id', ...page(HubEditorPage) },
              { path: 'leads', ...page(LeadsPage) },
              { path: 'team', ...page(TeamPage) },
              { path: 'account', ...page(AccountPage) },
              {
                path: 'settings',
                ...page(SettingsLayout),
                children: [
                  { index: true, element: <Navigate to="/settings/api/keys" replace />, handle: ApiKeysPage },
                  { path: 'workspace', ...page(WorkspaceSettingsPage) },
                  { path: 'ai', ...page(AiSettingsPage) },
                  { path: 'slack', ...page(SlackSettingsPage) },
                  { path: 'api/keys', ...page(ApiKeysPage) },
                  { path: 'api/oauth', ...page(OAuthAppsPage) },
                  { path: 'webhooks', ...page(WebhooksPage, webhooksOnly) },
                  { path: 'webhooks/:id', ...page(WebhookDetailPage, webhooksOnly) },
                  { path: 'hubspot', ...page(HubSpotSettingsPage) },
                  {
                    path: 'audit-log',
                    ...page(AuditLogPage, (element) => (
                      <RequirePermission permission="audit.read" denied={AUDIT_DENIED}>
                        {element}
                      </RequirePermission>
                    )),
                  },
                ],
              },
              { path: '*', ...page(NotFoundPage) },
            ],
          },
        ],
      },
    ],
  },
];

/**
 * Starts loading the chunks of every page and layout `path` would show (each once), so that following a
 * link, or arriving after sign-in, does not wait for them. A failed preload is tried again on the visit.
 */
export function preloadPath(path: string) {
  for (const { route } of matchRoutes(ROUTES, path) ?? []) (route.handle as LazyPage | undefined)?.preload().catch(() => {});
}
