import { Alert } from '../../components/alert';
import { useCan } from '../../session/use-can';
import { SlackAlertsPanel } from './slack-alerts-panel';

/** Settings → Slack: the workspace's channel for alerts about viewers and leads (admins only). */
export function SlackSettingsPage() {
  const allowed = useCan();
  if (!allowed('slack.manage')) {
    return <Alert tone="info">Only admins set up the workspace’s Slack channel. You can send alerts to your own channel from your account page.</Alert>;
  }
  return (
    <section className="card" aria-labelledby="slack-heading">
      <div className="card-header">
        <h2 id="slack-heading">Slack alerts</h2>
        <p className="muted">
          Post to a Slack channel when an identified viewer opens a demo, sends a lead form or finishes a demo, and a digest each morning: who, from which
          company, how far they got, with a button to their journey.
        </p>
      </div>
      <div className="card-body">
        <SlackAlertsPanel owner="workspace" />
      </div>
    </section>
  );
}
