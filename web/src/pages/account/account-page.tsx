import { PageHeader } from '../../components/page-header';
import { EmailSection } from './email-section';
import { PasswordSection } from './password-section';
import { ProfileSection } from './profile-section';
import { SessionsSection } from './sessions-section';

/** The signed-in person's own account, the same in every workspace they belong to. */
export function AccountPage() {
  return (
    <>
      <PageHeader title="Your account" description="Your profile, sign-in and sessions. They are the same in every workspace you belong to." />
      <div className="stack">
        <ProfileSection />
        <EmailSection />
        <PasswordSection />
        <SessionsSection />
      </div>
    </>
  );
}
