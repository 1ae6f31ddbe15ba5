// For tests: migrated, throw-away databases of both kinds, so every database test runs on PGlite and PostgreSQL.
// PostgreSQL tests create a uniquely named database through TEST_POSTGRES_URL (default: the local server's
// `postgres` user) and drop it on close; test files that use PostgreSQL are named `*.integration.test.ts`.
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe } from "vitest";
import { openDatabase } from "./database.ts";
import { PGLITE_OPTIONS, pgliteDatabase } from "./pglite.ts";
import type { Database } from "./types.ts";
import type { DatabaseKind } from "./url.ts";

export const TEST_DATABASE_KINDS: readonly DatabaseKind[] = ["pglite", "postgres"];

export const TEST_POSTGRES_URL =
  process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase extends Database {
  /** Where another connection to the same database can be opened; `memory://` (not shareable) for PGlite. */
  readonly url: string;
}

/** A fresh database, migrated unless asked not to be. Closing it also deletes it. */
export async function createTestDatabase(
  kind: DatabaseKind,
  options: { readonly migrate?: boolean } = {},
): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  return kind === "pglite" ? createPglite(migrate) : createPostgres(migrate);
}

/**
 * Declares the suite once per database kind, each with its own migrated database shared by the suite's tests
 * (so tests keep their rows apart, e.g. by unique keys):
 *
 *   withTestDatabases((t) => { it("…", async () => { await t.db().query("…") }) })
 */
export function withTestDatabases(
  define: (t: { readonly kind: DatabaseKind; db(): TestDatabase }) => void,
  kinds: readonly DatabaseKind[] = TEST_DATABASE_KINDS,
): void {
  for (const kind of kinds) {
    describe(`on ${kind}`, () => {
      let database: TestDatabase | undefined;
      beforeAll(async () => {
        database = await createTestDatabase(kind);
      });
      afterAll(async () => {
        await database?.close();
      });
      define({
        kind,
        db: () => {
          if (database === undefined) throw new Error("the test database is opened in beforeAll");
          return database;
        },
      });
    });
  }
}

// Creating and migrating a PGlite takes seconds; loading a dump of a migrated one takes a fraction of that.
let pgliteTemplate: Promise<File | Blob> | undefined;

async function migratedPgliteDump(): Promise<File | Blob> {
  const client = await PGlite.create("memory://", PGLITE_OPTIONS);
  const database = pgliteDatabase(client);
  try {
    await database.migrate();
    return await client.dumpDataDir("none");
  } finally {
    await database.close();
  }
}

async function createPglite(migrate: boolean): Promise<TestDatabase> {
  if (!migrate)
    return { ...pgliteDatabase(await PGlite.create("memory://", PGLITE_OPTIONS)), url: "memory://" };
  pgliteTemplate ??= migratedPgliteDump();
  const client = await PGlite.create({ ...PGLITE_OPTIONS, loadDataDir: await pgliteTemplate });
  return { ...pgliteDatabase(client), url: "memory://" };
}

async function createPostgres(migrate: boolean): Promise<TestDatabase> {
  const name = `namereg_test_${process.pid}_${randomBytes(6).toString("hex")}`;
  await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  let database: Database | undefined;
  try {
    database = await openDatabase({ url: url.toString() });
    if (migrate) await database.migrate();
  } catch (error) {
    await database?.close();
    await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    throw error;
  }
  const opened = database;
  return {
    ...opened,
    url: url.toString(),
    close: async () => {
      await opened.close();
      await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    },
  };
}

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
