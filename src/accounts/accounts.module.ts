import { defineModule } from '../module';
import { accountRoutes } from './account.routes';
import { type AccountSecurityService, createAccountSecurityService } from './account-security.service';
import { registerAccountsJobs } from './accounts.jobs';
import { type AccountsReader, createAccountsReader } from './accounts.reader';
import { accountsRoutes } from './accounts.routes';
import { type AccountsService, createAccountsService } from './accounts.service';
import type { AccountWorkspaces } from './memberships';
import { signupPolicyOf } from './signup-policy';

declare module '../module' {
  interface Services {
    /** `reader` is what other modules may ask of accounts (memberships). */
    accounts: { accounts: AccountsService; security: AccountSecurityService; reader: AccountsReader };
  }
}

/**
 * Users, memberships and web sessions: sign-up, sign-in, invitations accepted, one's own account. A
 * workspace is the workspaces domain's: sign-up makes the first one through its `reader`, and accounts'
 * tables refer to it by foreign key (so accounts → workspaces, never back).
 *
 * @example
 * // another module asks accounts through its reader:
 * defineModule({ name: 'oauth', needs: ['accounts'], create: (kernel, deps) => ({ ... deps.accounts.reader.findActiveMember ... }) });
 */
export const accountsModule = defineModule({
  name: 'accounts',
  owns: { tables: 'accounts.tables.ts', ids: ['user', 'member', 'session', 'accountToken'], permissions: ['account.read'] },
  needs: ['workspaces'],
  create: (kernel, deps) => {
    const links = {
      appUrl: kernel.config.APP_URL,
      verificationTtlMs: kernel.config.EMAIL_VERIFICATION_TTL,
      resetTtlMs: kernel.config.PASSWORD_RESET_TTL,
    };
    // Workspaces is built after accounts (app.ts), so its reader is looked up when called.
    const workspaces: AccountWorkspaces = {
      find: (...args) => deps.workspaces.reader.find(...args),
      byIds: (...args) => deps.workspaces.reader.byIds(...args),
      create: (...args) => deps.workspaces.reader.create(...args),
    };
    const reader = createAccountsReader({ database: kernel.database, workspaces });
    return {
      accounts: createAccountsService({
        ...kernel,
        ...links,
        sessionTtlMs: kernel.config.SESSION_TTL,
        signup: signupPolicyOf(kernel.config),
        workspaces,
        memberships: reader,
      }),
      security: createAccountSecurityService({ ...kernel, ...links }),
      reader,
    };
  },
  routes: (app, ctx) => {
    accountsRoutes(app, ctx);
    accountRoutes(app, ctx);
  },
  jobs: registerAccountsJobs,
});
