import { useState } from 'react';
import { accountApi } from '../api/account.api';
import { ApiError } from '../api/client';
import { useToast } from '../components/toast';

/** "Send the verification link again", as the banner and the account page both offer it. */
export function useResendVerification() {
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
  return { resend, sending };
}
