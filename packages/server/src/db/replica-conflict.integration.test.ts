// A hot standby cancels a read that stands in the way of replaying the writer's changes (a recovery conflict, here
// a lock the writer took while the read held the table, with `max_standby_streaming_delay = 0`). Through the
// replica's pool that is ReplicaConflictError, which the API answers like an unavailable database (503
// database_unavailable with Retry-After), not a 500: the read succeeds when retried.
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  type PrivatePostgres,
  startPrivatePostgres,
  startPrivateStandby,
} from "../../test/fixtures/private-postgres.ts";
import { openDatabase } from "./database.ts";
import type { Database } from "./types.ts";
import { isDatabaseUnavailable, ReplicaConflictError } from "./unavailable.ts";

/** Only tells a bounded wait from a hang. */
const HANG_MS = 60_000;

let primary: PrivatePostgres | undefined;
let standby: PrivatePostgres | undefined;
let database: Database | undefined;

beforeAll(async () => {
  primary = await startPrivatePostgres();
  standby = await startPrivateStandby(primary, { settings: { max_standby_streaming_delay: "0" } });
  database = await openDatabase({ url: primary.url, readUrl: standby.url });
}, HANG_MS);

afterAll(async () => {
  await database?.close();
  await standby?.stop();
  await primary?.stop();
});

/** The rows of a raw `execute` on node-postgres (typed loosely by Drizzle for both drivers). */
const rowsOf = (result: unknown) => (result as { rows: unknown[] }).rows;

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + HANG_MS;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

it(
  "reads a statement the standby cancelled for replay as unavailable, and the retry succeeds",
  async () => {
    if (primary === undefined || standby === undefined || database === undefined) throw new Error("no setup");
    const replica = database.replica;
    await database.query("create table marks (x int)");
    await database.query("insert into marks values (1)");
    await until(
      async () => rowsOf(await replica.execute(sql`select x from marks`)).length === 1,
      "the table",
    );

    // A read that holds the table while it runs.
    const read = replica.execute(sql`select x, pg_sleep(30) from marks`).then(
      () => null,
      (error: unknown) => error,
    );
    const watcher = new pg.Client({ connectionString: standby.url });
    await watcher.connect();
    try {
      await until(
        async () =>
          (
            await watcher.query(
              "select 1 from pg_stat_activity where state = 'active' and query like '%pg_sleep(30)%' and pid <> pg_backend_pid()",
            )
          ).rows.length === 1,
        "the read to be running on the standby",
      );
    } finally {
      await watcher.end();
    }
    // The writer takes the table for itself: replaying that lock must not wait for the read.
    const writer = new pg.Client({ connectionString: primary.url });
    await writer.connect();
    await writer.query("begin; lock table marks in access exclusive mode; commit");
    await writer.end();

    const error = await read;
    expect(error).toBeInstanceOf(Error);
    let conflict: unknown = error;
    while (conflict instanceof Error && !(conflict instanceof ReplicaConflictError))
      conflict = conflict.cause;
    expect(conflict).toBeInstanceOf(ReplicaConflictError);
    expect(((conflict as Error).cause as { code?: string }).code).toBe("40001");
    expect(isDatabaseUnavailable(error)).toBe(true);
    // Nothing was wrong with the read.
    expect(rowsOf(await replica.execute(sql`select x from marks`))).toEqual([{ x: 1 }]);
  },
  HANG_MS * 2,
);
