import { useMemo, useState } from 'react';
import { type SlackOwner, slackApi } from '../../api/slack.api';
import { LoadError } from '../../components/load-error';
import { LoadingBlock } from '../../components/spinner';
import { useResource } from '../../lib/use-resource';
import { SlackAlertsForm } from './slack-alerts-form';
import { SlackMessageLog } from './slack-message-log';

/** The Slack alerts of the workspace (Settings → Slack) or of the member (Account): the form, then the log. */
export function SlackAlertsPanel({ owner }: { owner: SlackOwner }) {
  const api = useMemo(() => slackApi(owner), [owner]);
  const settings = useResource(() => api.get());
  const [version, setVersion] = useState(0);
  async function saved() {
    await settings.reload();
    setVersion((v) => v + 1);
  }
  if (settings.status === 'loading') return <LoadingBlock />;
  if (settings.status === 'error') return <LoadError error={settings.error} onRetry={settings.reload} />;
  return (
    <div className="stack">
      <SlackAlertsForm key={String(settings.data.connected)} owner={owner} api={api} settings={settings.data} onSaved={saved} />
      {settings.data.connected ? <SlackMessageLog api={api} version={version} enabled={settings.data.status === 'active'} /> : null}
    </div>
  );
}
