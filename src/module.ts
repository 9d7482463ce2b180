// The shape every domain folder exports as <domain>.module.ts and app.ts lists once; a module is handed another module's services only by naming it in `needs`.
import type { AnyPgTable } from 'drizzle-orm/pg-core';
import type { Permission } from './auth/permissions';
import type { Kernel } from './context';
import type { ZodApp } from './core/http/types';
import type { IdKind } from './core/ids';
import type { EventKind } from './events/event-kinds';

/**
 * Every module's services, by module name. Each module adds its own entry from its own folder
 * (`declare module '../module' { interface Services { demos: ... } }`), so no central list names them.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one entry per module.
export interface Services {}

/** What a route registrar receives: the kernel and its own module's services. */
export type ModuleContext<S> = Kernel & { services: S };

/**
 * One domain, as the app sees it: one object per folder (`<domain>.module.ts`), one line in app.ts.
 */
export interface Module<N extends keyof Services, Needs extends keyof Services = never> {
  name: N;
  /** What the domain owns in the shared registries; the app checks that no two modules claim one. */
  owns?: {
    /** Its Drizzle tables file, which drizzle-kit finds by its name (src/\*\/\*.tables.ts). */
    tables?: string;
    ids?: readonly IdKind[];
    events?: readonly EventKind[];
    permissions?: readonly Permission[];
  };
  /**
   * Other domains' tables this domain's repositories query directly: a read model (analytics' figures from
   * viewing's roll-ups), a join (members for a permission check). The table objects themselves, so a
   * declaration cannot name a table that does not exist. `node scripts/check-imports.mjs` lets a
   * `*.repo.ts` of this folder import exactly these from another folder's `*.tables.ts`, and
   * docs/architecture.md lists them (generated). Nothing reads it at run time.
   */
  reads?: { tables: readonly AnyPgTable[] };
  /** The other modules whose services `create` may use, and only these. */
  needs?: readonly Needs[];
  /**
   * Builds the module's services. `deps` holds only the modules named in `needs`; a module listed later
   * in app.ts may be named too, as long as it is read when called, not while creating.
   */
  create(kernel: Kernel, deps: Pick<Services, Needs>): Services[N];
  /** Routes under /v1, in the order of the OpenAPI document. */
  routes?(app: ZodApp, ctx: ModuleContext<Services[N]>): void;
  /** Routes outside /v1 (pages, health), registered after the API. */
  pages?(app: ZodApp, ctx: ModuleContext<Services[N]>): void | Promise<void>;
  /** Queues and workers: sending works in every process, working only where the queue runs workers. */
  jobs?(ctx: ModuleContext<Services[N]>): Promise<void>;
  /** On app close, before the network client and the database go. */
  close?(services: Services[N]): Promise<void>;
}

/** Spells a module's types out once: `export const demosModule = defineModule({ ... })`. */
export const defineModule = <N extends keyof Services, Needs extends keyof Services = never>(module: Module<N, Needs>) =>
  module;

/** Any module, for the list in app.ts. */
// biome-ignore lint/suspicious/noExplicitAny: the list holds modules of every name; each is checked where it is defined.
export type AnyModule = Module<any, any>;
