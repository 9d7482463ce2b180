import { SlackAlertsPanel } from '../slack/slack-alerts-panel';
import { useSession } from '../../session/session-context';

/** Account → Slack: the member's own channel (or a DM webhook) for alerts, in the workspace the session acts in. */
export function SlackSection() {
  const { workspace } = useSession();
  return (
    <section className="card" aria-labelledby="own-slack-heading" id="slack">
      <div className="card-header">
        <h2 id="own-slack-heading">Slack</h2>
      </div>
      <div className="card-body stack">
        <p className="muted">
          Your own Slack alerts about the demos of <strong>{workspace.name}</strong>, besides the workspace’s channel: for example only the demos you
          created, to a channel of your own.
        </p>
        <SlackAlertsPanel owner="account" />
      </div>
    </section>
  );
}
