// What every step of the leads domain is given: the database, the clock, the change feed, and the two ports
// it works through (the viewing module's gates and payload, the notifications' queue).
import type { AuthContext } from '../auth/permissions';
import type { Changes } from '../core/changes';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';
import type { ReadRouting } from '../db/read-replica';
import type { DemoReader } from '../demos/demos.reader';
import type { Services } from '../module';

export interface LeadsContext {
  db: Database['db'];
  /** Where the lists and the export are read (the replica when fit, db/read-replica.ts); absent: `db`. */
  reads?: Pick<ReadRouting, 'reader'>;
  clock: Clock;
  changes: Pick<Changes, 'announce'>;
  /** The link's gates, its viewer sessions and the lead forms of the version it serves (viewing module). */
  viewer: Services['viewing']['viewer'];
  /** Queues the members' e-mail about a lead, in the lead's transaction. */
  notifications: Pick<Services['notifications']['notifications'], 'leadCaptured'>;
  /** A demo of the caller's workspace, for the demo's own list (404 outside it). */
  demos: Pick<DemoReader, 'find'>;
}

export type { AuthContext };
