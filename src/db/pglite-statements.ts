// PGlite's missing plan cache: every parameterised statement is parsed and planned once per text, as
// node-postgres's named statements are on a server.
import { type PGlite, type QueryOptions, type Results, parse, protocol } from '@electric-sql/pglite';

type BackendMessage = Parameters<typeof parse.parseResults>[0][number];

/** PGlite's own members this module drives: the mutexes and the protocol entry its `query` uses. */
interface PgliteInternals {
  _checkReady(): Promise<void>;
  _runExclusiveQuery<T>(fn: () => Promise<T>): Promise<T>;
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>;
  execProtocolStream(message: Uint8Array, options: { syncToFs: boolean; onNotice?: QueryOptions['onNotice'] }): Promise<BackendMessage[]>;
  syncToFs(): Promise<void>;
  serializers: Record<number, (value: unknown) => string>;
  parsers: Record<number, (value: string, typeId?: number) => unknown>;
}

interface Statement {
  readonly name: string;
  readonly paramTypes: readonly number[];
  /** Absent for a statement that returns no rows. */
  readonly rowDescription?: BackendMessage;
}

type Query = (text: string, params?: unknown[], options?: QueryOptions) => Promise<Results>;

/**
 * How many statement texts stay prepared: a text past this many evicts the least recently used one (closed
 * in the backend). Texts that vary with their data (a list of N values spelled as N parameters) take one
 * entry per shape, so the bound is what keeps them from growing the backend's memory.
 */
const CAPACITY = 512;

// Sent when a statement's plan became unusable (a table's columns changed under `select *`) or the
// statement is gone from the backend: the next call prepares it again.
const STALE = new Set(['0A000', '26000']);

/**
 * Makes `client.query` (and the `query` of its transactions) run parameterised statements as named
 * prepared statements. PGlite's own `query` sends six protocol messages per call, each its own trip into
 * the WebAssembly backend, and the backend parses and plans the text every time: for the ingestion's
 * data-modifying CTEs that is most of a batch (docs/benchmarks.md). Here a text is parsed, planned and
 * described once (Parse, Describe, Sync), and each call is Bind, Execute and Sync in one trip. Results,
 * errors, the mutexes and the file-system sync are PGlite's own: statements without parameters, and those
 * with a `blob` or `paramTypes`, still take PGlite's path.
 *
 * Prepared statements outlive transactions (protocol-level statements are not transactional), and
 * PostgreSQL replans one whose tables changed; a statement that cannot be replanned is prepared anew on its
 * next call. Returns false, changing nothing, when this PGlite lacks the members the cache drives.
 */
export function cacheStatements(client: PGlite, capacity = CAPACITY): boolean {
  const internals = client as unknown as PgliteInternals;
  // A PGlite whose internals moved keeps its own path: slower, never wrong.
  if (!hasInternals(internals)) return false;
  const statements = new Map<string, Statement>();
  const evicted: string[] = [];
  let counter = 0;

  const original: Query = client.query.bind(client);

  async function prepare(text: string, options: QueryOptions | undefined): Promise<Statement> {
    const name = `ds_${++counter}`;
    // Close what was evicted in the same trip: closing a statement is never an error, and the Parse that
    // follows runs only in a usable transaction.
    const closes = evicted.splice(0).map((old) => protocol.serialize.close({ type: 'S', name: old }));
    const messages = await internals.execProtocolStream(
      concat([...closes, protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]),
      { syncToFs: false, onNotice: options?.onNotice },
    );
    const statement: Statement = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((message) => message.name === 'rowDescription'),
    };
    statements.set(text, statement);
    if (statements.size > capacity) {
      const [oldest] = statements.keys();
      evicted.push(statements.get(oldest!)!.name);
      statements.delete(oldest!);
    }
    return statement;
  }

  async function run(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results> {
    try {
      return await runOnce(text, params, options, inTransaction);
    } catch (error) {
      // Outside a transaction nothing was lost with the stale statement: prepare it again, once.
      if (inTransaction || !STALE.has((error as { code?: string }).code ?? '')) throw error;
      return runOnce(text, params, options, inTransaction);
    }
  }

  async function runOnce(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results> {
    return internals._runExclusiveQuery(async () => {
      let statement = statements.get(text);
      try {
        if (statement) {
          // Most recently used last: the Map's order is the eviction order.
          statements.delete(text);
          statements.set(text, statement);
        } else {
          statement = await prepare(text, options);
        }
        const values = params.map((value, i) => {
          if (value === null || value === undefined) return null;
          const type = statement!.paramTypes[i]!;
          const serializer = options?.serializers?.[type] ?? internals.serializers[type];
          return serializer ? serializer(value) : String(value);
        });
        const messages = await internals.execProtocolStream(
          concat([
            protocol.serialize.bind({ statement: statement.name, values }),
            protocol.serialize.execute({}),
            protocol.serialize.sync(),
          ]),
          { syncToFs: false, onNotice: options?.onNotice },
        );
        if (!inTransaction) await internals.syncToFs();
        const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
        return parse.parseResults(described, internals.parsers, options)[0]!;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (statement && code && STALE.has(code)) {
          statements.delete(text);
          evicted.push(statement.name);
        }
        // As PGlite's own query does: the failing statement travels with its error.
        if (error && typeof error === 'object' && code) Object.assign(error, { query: text, params, queryOptions: options });
        throw error;
      }
    });
  }

  const cacheable = (params: unknown[] | undefined, options: QueryOptions | undefined): params is unknown[] =>
    params !== undefined && params.length > 0 && !options?.blob && !options?.paramTypes;

  const query: Query = async (text, params, options) => {
    if (!cacheable(params, options)) return original(text, params, options);
    await internals._checkReady();
    return internals._runExclusiveTransaction(() => run(text, params, options, false));
  };
  client.query = query as PGlite['query'];

  const transaction = client.transaction.bind(client);
  client.transaction = ((fn: Parameters<PGlite['transaction']>[0]) =>
    transaction((tx) => {
      const own = tx.query.bind(tx) as Query;
      tx.query = (async (text: string, params?: unknown[], options?: QueryOptions) => {
        if (!cacheable(params, options)) return own(text, params, options);
        if (tx.closed) throw new Error('Transaction is closed');
        return run(text, params, options, true);
      }) as typeof tx.query;
      return fn(tx);
    })) as PGlite['transaction'];
  return true;
}

function hasInternals(client: PgliteInternals): boolean {
  const methods = ['_checkReady', '_runExclusiveQuery', '_runExclusiveTransaction', 'execProtocolStream', 'syncToFs'] as const;
  return (
    methods.every((method) => typeof client[method] === 'function') &&
    typeof client.serializers === 'object' &&
    typeof client.parsers === 'object'
  );
}

function concat(parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}
