import { defineModule } from '../module';
import { registerAccountsJobs } from './accounts.jobs';
import { accountsRoutes } from './accounts.routes';
import { type AccountsService, createAccountsService } from './accounts.service';

declare module '../module' {
  interface Services {
    accounts: { accounts: AccountsService };
  }
}

/** Users, workspaces, memberships and web sessions. */
export const accountsModule = defineModule({
  name: 'accounts',
  owns: { tables: 'accounts.tables.ts', ids: ['user', 'workspace', 'member', 'session'], permissions: ['account.read'] },
  create: (kernel) => ({ accounts: createAccountsService({ ...kernel, sessionTtlMs: kernel.config.SESSION_TTL }) }),
  routes: accountsRoutes,
  jobs: registerAccountsJobs,
});
