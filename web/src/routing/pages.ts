import { lazyPage } from './lazy-page';

// Every page is a chunk of its own, so the sign-in page does not carry the editor, the analytics pages do
// not share their chart library with anyone, and a signed-in route loads its page and the shell only.
export const LoginPage = lazyPage(() => import('../pages/auth/login-page'), (m) => m.LoginPage);
export const SignupPage = lazyPage(() => import('../pages/auth/signup-page'), (m) => m.SignupPage);
export const AcceptInvitationPage = lazyPage(() => import('../pages/auth/accept-invitation-page'), (m) => m.AcceptInvitationPage);
export const ForgotPasswordPage = lazyPage(() => import('../pages/auth/forgot-password-page'), (m) => m.ForgotPasswordPage);
export const ResetPasswordPage = lazyPage(() => import('../pages/auth/reset-password-page'), (m) => m.ResetPasswordPage);
export const VerifyEmailPage = lazyPage(() => import('../pages/auth/verify-email-page'), (m) => m.VerifyEmailPage);
export const ConsentPage = lazyPage(() => import('../pages/oauth/consent-page'), (m) => m.ConsentPage);
export const AppLayout = lazyPage(() => import('../layout/app-layout'), (m) => m.AppLayout);
export const DemosPage = lazyPage(() => import('../pages/demos/demos-page'), (m) => m.DemosPage);
export const DemoEditorPage = lazyPage(() => import('../pages/demos/demo-editor-page'), (m) => m.DemoEditorPage);
export const RecorderPage = lazyPage(() => import('../pages/recorder/recorder-page'), (m) => m.RecorderPage);
export const DemoAnalyticsPage = lazyPage(() => import('../pages/analytics/demo-analytics-page'), (m) => m.DemoAnalyticsPage);
export const AnalyticsPage = lazyPage(() => import('../pages/analytics/analytics-page'), (m) => m.AnalyticsPage);
export const HubsPage = lazyPage(() => import('../pages/hubs/hubs-page'), (m) => m.HubsPage);
export const HubEditorPage = lazyPage(() => import('../pages/hubs/hub-editor-page'), (m) => m.HubEditorPage);
export const LeadsPage = lazyPage(() => import('../pages/leads/leads-page'), (m) => m.LeadsPage);
export const TeamPage = lazyPage(() => import('../pages/team/team-page'), (m) => m.TeamPage);
export const AccountPage = lazyPage(() => import('../pages/account/account-page'), (m) => m.AccountPage);
export const SettingsLayout = lazyPage(() => import('../pages/settings/settings-layout'), (m) => m.SettingsLayout);
export const WorkspaceSettingsPage = lazyPage(() => import('../pages/settings/workspace-settings-page'), (m) => m.WorkspaceSettingsPage);
export const ApiKeysPage = lazyPage(() => import('../pages/settings/api-keys-page'), (m) => m.ApiKeysPage);
export const OAuthAppsPage = lazyPage(() => import('../pages/settings/oauth-apps-page'), (m) => m.OAuthAppsPage);
export const WebhooksPage = lazyPage(() => import('../pages/webhooks/webhooks-page'), (m) => m.WebhooksPage);
export const WebhookDetailPage = lazyPage(() => import('../pages/webhooks/webhook-detail-page'), (m) => m.WebhookDetailPage);
export const SlackSettingsPage = lazyPage(() => import('../pages/slack/slack-settings-page'), (m) => m.SlackSettingsPage);
export const AiSettingsPage = lazyPage(() => import('../pages/settings/ai-settings-page'), (m) => m.AiSettingsPage);
export const HubSpotSettingsPage = lazyPage(() => import('../pages/settings/hubspot-settings-page'), (m) => m.HubSpotSettingsPage);
export const AuditLogPage = lazyPage(() => import('../pages/settings/audit-log-page'), (m) => m.AuditLogPage);
export const NotFoundPage = lazyPage(() => import('../pages/not-found-page'), (m) => m.NotFoundPage);
