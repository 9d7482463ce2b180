import { Link } from 'react-router';
import { Button } from '../components/button';
import { useResendVerification } from '../session/use-resend-verification';

/** Unverified accounts work; this says so on every page until the address is proved. */
export function VerifyBanner({ email }: { email: string }) {
  const { resend, sending } = useResendVerification();
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
