import { defineModule } from '../module';
import { registerAccountsJobs } from './accounts.jobs';
import { accountRoutes } from './account.routes';
import { accountsRoutes } from './accounts.routes';
import { type AccountsReader, createAccountsReader } from './accounts.reader';
import { type AccountsService, createAccountsService } from './accounts.service';
import { type AccountSecurityService, createAccountSecurityService } from './account-security.service';
import { signupPolicyOf } from './signup-policy';

declare module '../module' {
  interface Services {
    /** `reader` is what other modules may ask of accounts (memberships). */
    accounts: { accounts: AccountsService; security: AccountSecurityService; reader: AccountsReader };
  }
}

/** Users, workspaces, memberships and web sessions. */
export const accountsModule = defineModule({
  name: 'accounts',
  owns: { tables: 'accounts.tables.ts', ids: ['user', 'workspace', 'member', 'session', 'accountToken'], permissions: ['account.read'] },
  create: (kernel) => {
    const links = {
      appUrl: kernel.config.APP_URL,
      verificationTtlMs: kernel.config.EMAIL_VERIFICATION_TTL,
      resetTtlMs: kernel.config.PASSWORD_RESET_TTL,
    };
    return {
      accounts: createAccountsService({ ...kernel, ...links, sessionTtlMs: kernel.config.SESSION_TTL, signup: signupPolicyOf(kernel.config) }),
      security: createAccountSecurityService({ ...kernel, ...links }),
      reader: createAccountsReader(kernel.database),
    };
  },
  routes: (app, ctx) => {
    accountsRoutes(app, ctx);
    accountRoutes(app, ctx);
  },
  jobs: registerAccountsJobs,
});
