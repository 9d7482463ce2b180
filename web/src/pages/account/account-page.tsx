import { PageHeader } from '../../components/page-header';
import { AuthorizedAppsSection } from './authorized-apps-section';
import { EmailSection } from './email-section';
import { NotificationsSection } from './notifications-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { SessionsSection } from './sessions-section';
import { SlackSection } from './slack-section';

/** The signed-in person's own account, the same in every workspace they belong to. */
export function AccountPage() {
  return (
    <>
      <PageHeader title="Your account" description="Your profile, sign-in, sessions, notifications and Slack alerts. All but notifications and Slack are the same in every workspace you belong to." />
      <div className="stack">
        <ProfileSection />
        <EmailSection />
        <PasswordSection />
        <SessionsSection />
        <AuthorizedAppsSection />
        <NotificationsSection />
        <SlackSection />
      </div>
    </>
  );
}
