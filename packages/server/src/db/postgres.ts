// PostgreSQL: a writer pool, a replica pool when a replica is configured, and dedicated connections for what a
// pool cannot do — LISTEN, and session-level advisory locks that last exactly as long as their connection.
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { PgListener } from "./pg-listener.ts";
import { readReplicaLag } from "./replica-lag.ts";
import { replicaSchemaOf } from "./replica-schema.ts";
import * as schema from "./schema.ts";
import { advisoryLockKey, checkChannel, lockKey, MIGRATIONS_FOLDER, withinTime } from "./shared.ts";
import type { AdvisoryLock, Database, Db, Row } from "./types.ts";
import { replicaError } from "./unavailable.ts";

export interface PostgresOptions {
  readonly url: string;
  readonly readUrl?: string;
  /** Errors on idle or background connections, which no caller is waiting for. */
  readonly onError: (error: Error) => void;
  /** See OpenDatabaseOptions. */
  readonly statementTimeoutMs?: number;
  /** See OpenDatabaseOptions. */
  readonly poolSize?: number;
}

const MIGRATION_LOCK = advisoryLockKey("namereg:migrate");

export function openPostgres(options: PostgresOptions): Database {
  const { url, onError } = options;
  const readUrl = options.readUrl ?? url;
  const limit = options.statementTimeoutMs;
  // statement_timeout stops a slow statement on the server; query_timeout gives up on a server that does not
  // answer at all (frozen, unreachable), where statement_timeout cannot fire. Either way the caller gets an
  // error it maps to 503 instead of waiting (api/plugins/errors.ts). Migrations and locks use their own
  // sessions, outside these limits.
  const bounds =
    limit === undefined
      ? { connectionTimeoutMillis: 10_000 }
      : { connectionTimeoutMillis: limit, statement_timeout: limit, query_timeout: limit + 1000 };
  const pool = (connectionString: string) => {
    const p = new pg.Pool({ connectionString, keepAlive: true, max: options.poolSize ?? 10, ...bounds });
    p.on("error", onError);
    // pg-pool listens for errors only on idle clients. A checked-out client whose backend is terminated between
    // two statements of a transaction (a database restart) would emit an unhandled 'error' and crash the
    // process; its owner learns of it anyway, from the next statement failing.
    p.on("connect", (client) => client.on("error", () => undefined));
    return p;
  };
  const writerPool = pool(url);
  const readerPool = readUrl === url ? writerPool : replicaPool(pool(readUrl));
  const db: Db = drizzle({ client: writerPool, schema });
  const replica: Db = readerPool === writerPool ? db : drizzle({ client: readerPool, schema });
  const listener = new PgListener(url, onError);
  const sessions = new Set<pg.Client>();

  /** A connection outside the pools, ended by close() if its owner has not ended it. */
  const session = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString: url, keepAlive: true });
    // Without a listener an error on this socket would crash the process; owners watch "end" instead.
    client.on("error", onError);
    client.on("end", () => sessions.delete(client));
    sessions.add(client);
    try {
      await client.connect();
    } catch (error) {
      sessions.delete(client);
      await client.end().catch(() => {});
      throw error;
    }
    return client;
  };

  const hold = async (client: pg.Client, key: bigint, leaseMs: number | undefined): Promise<AdvisoryLock> => {
    const lost = new AbortController();
    let released = false;
    client.on("end", () => {
      if (!released) lost.abort(new Error("the connection holding the advisory lock ended"));
    });
    if (leaseMs !== undefined) await lease(client, leaseMs);
    return {
      key,
      lost: lost.signal,
      release: async () => {
        if (released) return;
        released = true;
        // Ending the session releases the lock; unlocking first just makes it immediate for the server.
        await client.query("select pg_advisory_unlock($1::bigint)", [key.toString()]).catch(() => {});
        await client.end().catch(() => {});
      },
    };
  };

  const rows =
    (p: pg.Pool) =>
    async <T extends Row>(sql: string, params: unknown[] = []) =>
      (await p.query<T>(sql, params)).rows;

  return {
    kind: "postgres",
    db,
    replica,
    ...(readerPool === writerPool
      ? {}
      : { replicaLag: () => readReplicaLag(rows(writerPool), rows(readerPool)) }),
    migrate: async () => {
      // Replicas starting together would race to create the same tables; the lock queues them.
      const client = await session();
      try {
        await client.query("select pg_advisory_lock($1::bigint)", [MIGRATION_LOCK.toString()]);
        await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await client.end().catch(() => {});
      }
    },
    poolStats: () => ({
      total: writerPool.totalCount,
      idle: writerPool.idleCount,
      waiting: writerPool.waitingCount,
    }),
    replicaSchema: () =>
      replicaSchemaOf(async <T extends Row>(sql: string) => (await readerPool.query<T>(sql)).rows),
    healthy: async () => {
      const checks = [withinTime(() => writerPool.query("select 1"), 2000)];
      if (readerPool !== writerPool) checks.push(withinTime(() => readerPool.query("select 1"), 2000));
      return (await Promise.all(checks)).every(Boolean);
    },
    query: async <T extends Row = Row>(sql: string, params: readonly unknown[] = []) =>
      (await writerPool.query<T>(sql, [...params])).rows,
    notify: async (channel, payload) => {
      await writerPool.query("select pg_notify($1, $2)", [checkChannel(channel), payload]);
    },
    listen: (channel, onPayload, listenOptions = {}) =>
      listener.subscribe(checkChannel(channel), onPayload, listenOptions),
    tryAdvisoryLock: async (key, lockOptions = {}) => {
      const k = lockKey(key);
      const client = await session();
      try {
        const { rows } = await client.query<{ ok: boolean }>(
          "select pg_try_advisory_lock($1::bigint) as ok",
          [k.toString()],
        );
        if (rows[0]?.ok === true) return await hold(client, k, lockOptions.leaseMs);
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
      await client.end().catch(() => {});
      return null;
    },
    advisoryLock: async (key, lockOptions = {}) => {
      const k = lockKey(key);
      const { signal } = lockOptions;
      signal?.throwIfAborted();
      const client = await session();
      // A waiting pg_advisory_lock cannot be cancelled from its own connection; ending it ends the wait.
      const onAbort = () => void client.end().catch(() => {});
      signal?.addEventListener("abort", onAbort, { once: true });
      try {
        signal?.throwIfAborted();
        await client.query("select pg_advisory_lock($1::bigint)", [k.toString()]);
      } catch (error) {
        await client.end().catch(() => {});
        if (signal?.aborted) throw signal.reason;
        throw error;
      } finally {
        signal?.removeEventListener("abort", onAbort);
      }
      if (signal?.aborted) {
        await client.end().catch(() => {});
        throw signal.reason;
      }
      try {
        return await hold(client, k, lockOptions.leaseMs);
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
    },
    close: async () => {
      await listener.close();
      await Promise.all([...sessions].map((client) => client.end().catch(() => {})));
      await writerPool.end();
      if (readerPool !== writerPool) await readerPool.end();
    },
  };
}

/**
 * The replica's errors that say its schema is behind the code's become ReplicaBehindError, which the API answers
 * with 503 like any unavailable database (unavailable.ts). Drizzle reads through `pool.query` (promise form).
 */
function replicaPool(pool: pg.Pool): pg.Pool {
  const query = pool.query.bind(pool) as (...args: unknown[]) => unknown;
  (pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    const result = query(...args);
    return result instanceof Promise
      ? result.catch((error: unknown) => {
          throw replicaError(error);
        })
      : result;
  };
  return pool;
}

/** Turns a lock session into a lease (LockOptions.leaseMs): the server ends it after `leaseMs` of silence. */
async function lease(client: pg.Client, leaseMs: number): Promise<void> {
  try {
    await client.query("select set_config('idle_session_timeout', $1, false)", [`${leaseMs}ms`]);
  } catch (error) {
    // Before PostgreSQL 14 there is no such setting: the lock is held until its connection ends, as before.
    if ((error as { code?: unknown }).code !== "42704") throw error;
    return;
  }
  // Several heartbeats per lease, so a busy event loop (a long batch, a GC pause) does not cost the lock. A
  // heartbeat that fails means the session is gone or unusable: ending it makes the loss known at once.
  const beat = setInterval(
    () => void client.query("select 1").catch(() => client.end().catch(() => {})),
    Math.max(100, Math.floor(leaseMs / 4)),
  );
  beat.unref();
  client.once("end", () => clearInterval(beat));
}
