// What every change to a demo's own row needs (create, update, delete, regenerate).
import type { Changes } from '../core/changes';
import type { Clock } from '../core/clock';
import type { Database } from '../db/client';

/** The infrastructure a demo write uses: the transaction, the clock, and the change feed announced after commit. */
export interface DemoWriteDeps {
  database: Pick<Database, 'db'>;
  clock: Clock;
  changes: Changes;
}
