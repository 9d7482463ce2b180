import { Link } from 'react-router';
import { Button } from '../components/button';
import { useSession } from '../session/session-context';
import { useResendVerification } from '../session/use-resend-verification';
import { MailSetupHint } from './mail-setup-hint';

/**
 * Unverified accounts work; this says so on every page until the address is proved. It never promises an
 * e-mail the server cannot send: without SMTP the link is only in the server's log, and it says that.
 */
export function VerifyBanner({ email }: { email: string }) {
  const { resend, sending } = useResendVerification();
  const session = useSession();
  if (!session.email_delivery) {
    return (
      <div className="banner" role="status">
        <span>
          Your address <strong>{email}</strong> is not verified, and this server cannot send e-mail yet: the verification link is
          only in the server's log. <MailSetupHint />
        </span>
        <Link to="/account">Change the address</Link>
      </div>
    );
  }
  return (
    <div className="banner" role="status">
      <span>
        Verify your e-mail address: follow the link we sent to <strong>{email}</strong>.
      </span>
      <Button size="sm" onClick={resend} loading={sending}>
        Send it again
      </Button>
      <Link to="/account">Change the address</Link>
    </div>
  );
}
