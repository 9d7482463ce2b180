import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { workspaces } from '../workspaces/workspaces.tables';
import { at, createdAt, id, updatedAt } from '../db/columns';

export const DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const;
/** pending: never verified (or taken over); verified: served; failed: its records went missing for longer than the grace. */
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
export const VERIFICATION_METHODS = ['txt', 'cname'] as const;
export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

/**
 * A workspace's claim on a host name. Several workspaces may claim one name (each with its own TXT token),
 * but at most one holds it verified: the unique partial index is the last word when two verify at once.
 */
export const customDomains = pgTable(
  'custom_domains',
  {
    id: id(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** Normalised: lower-case ASCII (punycode), no trailing dot, no port. */
    hostname: text('hostname').notNull(),
    /** The value of the TXT record `_demoshare.<hostname>` that proves this workspace controls the name. */
    verificationToken: text('verification_token').notNull(),
    status: text('status', { enum: DOMAIN_STATUSES }).notNull().default('pending'),
    verifiedBy: text('verified_by', { enum: VERIFICATION_METHODS }),
    verifiedAt: at('verified_at'),
    lastCheckedAt: at('last_checked_at'),
    /** Why the last check did not verify, in words for the admin; null after a passing check. */
    lastError: text('last_error'),
    /** First failed re-check since the last passing one: the clock of DOMAIN_RECHECK_GRACE. */
    failingSince: at('failing_since'),
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    /**
     * Where the domain's own root (`/`) sends a visitor (a 302): the workspace's hub, its website, any http(s)
     * address. Null: the "Nothing here" page.
     */
    rootUrl: text('root_url'),
    /**
     * The admin's choice of the domain the workspace's links use (PATCH `primary: true`). Without one, links use
     * the oldest verified domain; the API's `primary` names whichever is in effect.
     */
    isPrimary: boolean('is_primary').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('custom_domains_workspace_host_uq').on(t.workspaceId, t.hostname),
    uniqueIndex('custom_domains_verified_host_uq').on(t.hostname).where(sql`status = 'verified'`),
    index('custom_domains_host_idx').on(t.hostname),
    // One chosen domain per workspace, and only a verified one: the database's last word when two admins choose
    // at once. A flag on the domain rows rather than a column on workspaces: the choice goes with its row when
    // the domain is removed (no pointer left dangling, no foreign key from workspaces back to this table), and
    // the check can tie it to the row's status, so a domain that stops being verified must give the choice up.
    uniqueIndex('custom_domains_primary_uq').on(t.workspaceId).where(sql`is_primary`),
    check('custom_domains_primary_verified_ck', sql`not ${t.isPrimary} or ${t.status} = 'verified'`),
  ],
);
