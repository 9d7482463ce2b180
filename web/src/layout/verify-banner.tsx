import { useState } from 'react';
import { Link } from 'react-router';
import { accountApi } from '../api/account.api';
import { ApiError } from '../api/client';
import { Button } from '../components/button';
import { useToast } from '../components/toast';

/** Unverified accounts work; this says so on every page until the address is proved. */
export function VerifyBanner({ email }: { email: string }) {
  const notify = useToast();
  const [sending, setSending] = useState(false);
  async function resend() {
    setSending(true);
    try {
      notify((await accountApi.resendVerification()).message);
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'The link could not be sent. Try again.', 'danger');
    } finally {
      setSending(false);
    }
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
