import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { LoadingBlock } from './components/spinner';
import { ToastProvider } from './components/toast';
import { AppLayout } from './layout/app-layout';
import { RequireSession } from './layout/require-session';
import { AnalyticsPage } from './pages/analytics/analytics-page';
import { AccountPage } from './pages/account/account-page';
import { AcceptInvitationPage } from './pages/auth/accept-invitation-page';
import { ForgotPasswordPage } from './pages/auth/forgot-password-page';
import { LoginPage } from './pages/auth/login-page';
import { ResetPasswordPage } from './pages/auth/reset-password-page';
import { SignupPage } from './pages/auth/signup-page';
import { VerifyEmailPage } from './pages/auth/verify-email-page';
import { DemoEditorPage } from './pages/demos/demo-editor-page';
import { DemosPage } from './pages/demos/demos-page';
import { NotFoundPage } from './pages/not-found-page';
import { ConsentPage } from './pages/oauth/consent-page';
import { ApiKeysPage } from './pages/settings/api-keys-page';
import { AuditLogPage } from './pages/settings/audit-log-page';
import { OAuthAppsPage } from './pages/settings/oauth-apps-page';
import { SettingsLayout } from './pages/settings/settings-layout';
import { WorkspaceSettingsPage } from './pages/settings/workspace-settings-page';
import { TeamPage } from './pages/team/team-page';
import { WebhookDetailPage } from './pages/webhooks/webhook-detail-page';
import { WebhooksPage } from './pages/webhooks/webhooks-page';
import { RequirePermission } from './session/require-permission';
import { SessionProvider } from './session/session-context';

// Analytics pages bring their chart library: loaded when first opened, never with the rest of the app.
const DemoAnalyticsPage = lazy(() => import('./pages/analytics/demo-analytics-page').then((m) => ({ default: m.DemoAnalyticsPage })));

const WEBHOOKS_DENIED = 'Only admins manage webhooks. Ask an admin of this workspace to add one.';
const AUDIT_DENIED = 'Only workspace admins can read the audit log.';

export function App() {
  return (
    <SessionProvider>
      <ToastProvider>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/signup" element={<SignupPage />} />
          <Route path="/invite/:token" element={<AcceptInvitationPage />} />
          <Route path="/forgot-password" element={<ForgotPasswordPage />} />
          <Route path="/reset-password/:token" element={<ResetPasswordPage />} />
          <Route path="/verify-email/:token" element={<VerifyEmailPage />} />
          <Route element={<RequireSession />}>
            <Route path="/oauth/authorize" element={<ConsentPage />} />
            <Route element={<AppLayout />}>
              <Route index element={<Navigate to="/demos" replace />} />
              <Route path="demos" element={<DemosPage />} />
              <Route path="demos/:id" element={<DemoEditorPage />} />
              <Route
                path="demos/:id/analytics"
                element={
                  <Suspense fallback={<LoadingBlock label="Loading analytics…" />}>
                    <DemoAnalyticsPage />
                  </Suspense>
                }
              />
              <Route path="analytics" element={<AnalyticsPage />} />
              <Route path="team" element={<TeamPage />} />
              <Route path="account" element={<AccountPage />} />
              <Route path="settings" element={<SettingsLayout />}>
                <Route index element={<Navigate to="/settings/api/keys" replace />} />
                <Route path="workspace" element={<WorkspaceSettingsPage />} />
                <Route path="api/keys" element={<ApiKeysPage />} />
                <Route path="api/oauth" element={<OAuthAppsPage />} />
                <Route
                  path="webhooks"
                  element={
                    <RequirePermission permission="webhooks.manage" denied={WEBHOOKS_DENIED}>
                      <WebhooksPage />
                    </RequirePermission>
                  }
                />
                <Route
                  path="webhooks/:id"
                  element={
                    <RequirePermission permission="webhooks.manage" denied={WEBHOOKS_DENIED}>
                      <WebhookDetailPage />
                    </RequirePermission>
                  }
                />
                <Route
                  path="audit-log"
                  element={
                    <RequirePermission permission="audit.read" denied={AUDIT_DENIED}>
                      <AuditLogPage />
                    </RequirePermission>
                  }
                />
              </Route>
              <Route path="*" element={<NotFoundPage />} />
            </Route>
          </Route>
        </Routes>
      </ToastProvider>
    </SessionProvider>
  );
}
