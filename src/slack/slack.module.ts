import { members, users } from '../accounts/accounts.tables';
import { demos, demoVersions } from '../demos/demos.tables';
import { hubSessions, hubs } from '../hubs/hubs.tables';
import { defineModule } from '../module';
import { shares } from '../shares/shares.tables';
import { views } from '../viewing/viewing.tables';
import { workspaces } from '../workspaces/workspaces.tables';
import { slackConsumer } from './slack.consumer';
import { registerSlackJobs } from './slack.jobs';
import { slackRoutes } from './slack.routes';
import { createSlackService, type SlackService } from './slack.service';

declare module '../module' {
  interface Services {
    slack: { slack: SlackService };
  }
}

/**
 * Slack alerts: a workspace's and each member's own incoming webhook, which alerts go there (identified
 * viewer opened, lead captured (a hub's form too), demo finished, daily digest), Block Kit messages sent with retries, and
 * their log. The outbox consumer makes the messages in the webhooks dispatcher's transaction; a loop in
 * each worker process sends them (slack.jobs.ts).
 *
 * @example
 * ```ts
 * // app.ts lists it; nothing calls it: events recorded with emitEvent reach it through kernel.outbox.
 * await services.slack.slack.save(auth, true, { url, alerts: ['viewer_opened'], scope: 'mine' }, actor);
 * ```
 */
export const slackModule = defineModule({
  name: 'slack',
  owns: { tables: 'slack.tables.ts', ids: ['slackDestination', 'slackMessage'], permissions: ['slack.manage'] },
  reads: { tables: [demos, demoVersions, hubs, hubSessions, shares, views, members, users, workspaces] },
  needs: ['notifications'],
  create: (kernel, deps) => {
    const appUrl = kernel.config.APP_URL.replace(/\/+$/, '');
    const attemptsPerRound = kernel.config.WEBHOOK_RETRY_DELAYS.length + 1;
    kernel.outbox.add('slack', slackConsumer({ appUrl, maxAttempts: attemptsPerRound }));
    return {
      slack: createSlackService({
        ...kernel,
        sealingKey: kernel.secrets.sealing,
        timeoutMs: kernel.config.WEBHOOK_TIMEOUT,
        attemptsPerRound,
        maxAttempts: attemptsPerRound,
        notifications: deps.notifications.notifications,
        appUrl,
      }),
    };
  },
  routes: slackRoutes,
  jobs: registerSlackJobs,
});
