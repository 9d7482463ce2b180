import { useState } from 'react';
import { ApiError } from '../../api/client';
import { type Webhook, webhooksApi } from '../../api/webhooks.api';
import { useToast } from '../../components/toast';
import { useResource } from '../../lib/use-resource';
import { useSendTest } from './webhooks-page';

/**
 * One webhook and what its page does to it in place: send a test (which makes the delivery log look
 * again, through `logVersion`) and disable or enable it.
 */
export function useWebhook(id: string) {
  const notify = useToast();
  const sendTest = useSendTest();
  const resource = useResource(() => webhooksApi.get(id));
  const [switching, setSwitching] = useState(false);
  const [testing, setTesting] = useState(false);
  const [logVersion, setLogVersion] = useState(0);

  async function setActive(current: Webhook, active: boolean) {
    setSwitching(true);
    try {
      await webhooksApi.update(current.id, { active });
      notify(active ? 'Webhook enabled' : 'Webhook disabled');
      await resource.reload();
    } catch (err) {
      notify(err instanceof ApiError ? err.message : 'The webhook could not be changed.', 'danger');
    } finally {
      setSwitching(false);
    }
  }

  async function test(current: Webhook) {
    setTesting(true);
    if (await sendTest(current)) setLogVersion((v) => v + 1);
    setTesting(false);
  }

  return { resource, switching, testing, logVersion, setActive, test };
}
