// The embedded database: PGlite in this process, in memory or in a directory. One connection serves both
// reading and writing, and LISTEN/NOTIFY stays inside the process.
import { mkdir, readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { MEMORY_URL, pgliteDataDir } from "../config/database-url.ts";
import { claimDataDir, PID_FILE } from "./data-dir-claim.ts";
import { LocalLocks } from "./local-locks.ts";
import { dropSeed, PGLITE_OPTIONS, pgliteSeed } from "./pglite-seed.ts";
import { replicaSchemaOf } from "./replica-schema.ts";
import * as schema from "./schema.ts";
import { checkChannel, lockKey, MIGRATIONS_FOLDER, withinTime } from "./shared.ts";
import type { Database, Db, Row } from "./types.ts";

export { PGLITE_OPTIONS };

export async function openPglite(url: string): Promise<Database> {
  const dataDir = pgliteDataDir(url);
  if (dataDir === MEMORY_URL) return pgliteDatabase(await createFromSeed(undefined));
  await mkdir(dataDir, { recursive: true });
  const release = await claimDataDir(dataDir);
  let database: Database;
  try {
    // An empty data directory starts from the seed (pglite-seed.ts) like memory does; one holding anything (a
    // database, or files of someone else's) is PGlite's to judge, as before there was a seed.
    const fresh = await holdsNothing(dataDir);
    database = pgliteDatabase(
      fresh ? await createFromSeed(dataDir) : await PGlite.create(dataDir, PGLITE_OPTIONS),
    );
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

/**
 * A new database (in memory when `dataDir` is undefined) loaded from the seed instead of made by initdb and migrated
 * statement by statement; the migrations still run after it and find themselves applied. Without a usable seed, or
 * when one does not load (it is then dropped, so the next start builds it again), made the slow way.
 */
async function createFromSeed(dataDir: string | undefined): Promise<PGlite> {
  const seed = await pgliteSeed().catch(() => null);
  if (seed !== null) {
    try {
      return await PGlite.create({ ...PGLITE_OPTIONS, dataDir, loadDataDir: seed });
    } catch {
      await dropSeed().catch(() => {});
      // The directory held nothing but this process's claim before the seed went in (holdsNothing).
      if (dataDir !== undefined) await rmAllButClaim(dataDir);
    }
  }
  return PGlite.create(dataDir ?? MEMORY_URL, PGLITE_OPTIONS);
}

/** Whether a data directory holds nothing but this process's claim on it (namereg.pid). */
export async function holdsNothing(dataDir: string): Promise<boolean> {
  return (await readdir(dataDir)).every((name) => name === PID_FILE);
}

/** Removes what a seed that failed to load left in a data directory, all but this process's claim on it. */
async function rmAllButClaim(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir))
    if (name !== PID_FILE) await rm(join(dataDir, name), { recursive: true, force: true });
}

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
