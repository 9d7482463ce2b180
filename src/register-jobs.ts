import { registerAccountsJobs } from './accounts/accounts.jobs';
import type { AppContext } from './context';
import { registerDemosJobs } from './demos/demos.jobs';
import { registerViewerJobs } from './viewer/viewer.jobs';
import { registerWebhooksJobs } from './webhooks/webhooks.jobs';

/** Every domain's queues and workers. Sending works in every process; `work` only runs in workers. */
const JOB_MODULES: Array<(ctx: AppContext) => Promise<void>> = [
  registerAccountsJobs,
  registerDemosJobs,
  registerViewerJobs,
  registerWebhooksJobs,
];

export async function registerJobs(ctx: AppContext): Promise<void> {
  for (const register of JOB_MODULES) await register(ctx);
}
