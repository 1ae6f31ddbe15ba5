// The embedded database: PGlite in this process, in memory or in a directory. One connection serves both
// reading and writing, and LISTEN/NOTIFY stays inside the process.
import { mkdir } from "node:fs/promises";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { MEMORY_URL, pgliteDataDir } from "../config/database-url.ts";
import { claimDataDir } from "./data-dir-claim.ts";
import { LocalLocks } from "./local-locks.ts";
import { replicaSchemaOf } from "./replica-schema.ts";
import * as schema from "./schema.ts";
import { checkChannel, lockKey, MIGRATIONS_FOLDER, withinTime } from "./shared.ts";
import type { Database, Db, Row } from "./types.ts";

export async function openPglite(url: string): Promise<Database> {
  const dataDir = pgliteDataDir(url);
  if (dataDir === MEMORY_URL) return pgliteDatabase(await PGlite.create(dataDir, PGLITE_OPTIONS));
  await mkdir(dataDir, { recursive: true });
  const release = await claimDataDir(dataDir);
  let database: Database;
  try {
    database = pgliteDatabase(await PGlite.create(dataDir, PGLITE_OPTIONS));
  } catch (err) {
    await release();
    throw err;
  }
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      await release();
    },
  };
}

/** Extensions the migrations use (trigram search for `/v1/lookup`); PostgreSQL ships them in contrib. */
export const PGLITE_OPTIONS: PGliteOptions = { extensions: { pg_trgm } };

/** Wraps an open PGlite; closing the Database closes it. */
export function pgliteDatabase(client: PGlite): Database {
  const drizzleDb = drizzle({ client, schema });
  const db: Db = drizzleDb;
  const locks = new LocalLocks();

  return {
    kind: "pglite",
    db,
    replica: db,
    migrate: async () => {
      await migrate(drizzleDb, { migrationsFolder: MIGRATIONS_FOLDER });
    },
    // One connection: the "replica" is the writer, migrated before use.
    replicaSchema: () => replicaSchemaOf(async (sql) => (await client.query<never>(sql)).rows),
    healthy: () => withinTime(() => client.query("select 1"), 2000),
    query: async <T extends Row = Row>(sql: string, params: readonly unknown[] = []) =>
      (await client.query<T>(sql, [...params])).rows,
    notify: async (channel, payload) => {
      await client.query("select pg_notify($1, $2)", [checkChannel(channel), payload]);
    },
    listen: async (channel, onPayload) => {
      const unlisten = await client.listen(checkChannel(channel), onPayload);
      return { close: () => unlisten() };
    },
    tryAdvisoryLock: async (key) => locks.tryAcquire(lockKey(key)),
    advisoryLock: (key, options = {}) => locks.acquire(lockKey(key), options.signal),
    close: async () => {
      locks.close();
      if (!client.closed) await client.close();
    },
  };
}
