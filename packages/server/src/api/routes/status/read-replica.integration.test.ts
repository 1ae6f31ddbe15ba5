// The `Read replica` component of /v1/status against a real hot standby (a private primary and a standby made by
// `pg_basebackup -R`, applying transactions 2 s late): 0 s behind when it has everything, however long the
// primary has been idle (where the standby's own replay age keeps growing); behind by the age of the last
// transaction it replayed while a newer one waits, `degraded` past READ_REPLICA_MAX_LAG_SECONDS; `down` when the
// standby is stopped.
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import {
  type PrivatePostgres,
  startPrivatePostgres,
  startPrivateStandby,
} from "../../../../test/fixtures/private-postgres.ts";
import { headAt } from "../../../../test/fixtures/routes.ts";
import { openDatabase } from "../../../db/database.ts";
import { waitForReplicaSchema } from "../../../db/replica-schema.ts";
import type { Database } from "../../../db/types.ts";
import { buildApp } from "../../app.ts";

const APPLY_DELAY_MS = 2000;
/** Only tells a bounded wait from a hang. */
const HANG_MS = 60_000;

let primary: PrivatePostgres | undefined;
let standby: PrivatePostgres | undefined;
let database: Database | undefined;
let writer: pg.Client | undefined;
/** Built once: right after a write, the status must be asked within the apply delay. */
let app: Awaited<ReturnType<typeof buildApp>> | undefined;

beforeAll(async () => {
  primary = await startPrivatePostgres();
  standby = await startPrivateStandby(primary, { applyDelayMs: APPLY_DELAY_MS });
  database = await openDatabase({ url: primary.url, readUrl: standby.url });
  await database.migrate();
  await waitForReplicaSchema(database, { log: { info: () => {}, warn: () => {} }, pollMs: 100 });
  writer = new pg.Client({ connectionString: primary.url });
  await writer.connect();
  await writer.query("create table marks (id serial primary key)");
  app = await buildApp({
    config: testConfig({
      DATABASE_URL: primary.url,
      DATABASE_READ_URL: standby.url,
      READ_REPLICA_MAX_LAG_SECONDS: "1",
    }),
    db: database,
    redis: null,
    chain: headAt(1),
  });
}, HANG_MS);

afterAll(async () => {
  await app?.close();
  await writer?.end();
  await database?.close();
  await standby?.stop();
  await primary?.stop();
});

interface ReplicaComponent {
  name: string;
  state: string;
  lagSeconds: number | null;
  lagBytes: number | null;
  replayedAt: string | null;
}

async function readReplica(): Promise<{
  replica: ReplicaComponent | undefined;
  database: string | undefined;
}> {
  if (app === undefined) throw new Error("no setup");
  const response = await app.inject({ url: "/v1/status" });
  expect(response.statusCode).toBe(200);
  const components = (response.json() as { components: (ReplicaComponent & { state: string })[] }).components;
  return {
    replica: components.find((c) => c.name === "Read replica"),
    database: components.find((c) => c.name === "Database")?.state,
  };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + HANG_MS;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const caughtUp = (c: { replica: ReplicaComponent | undefined }) => c.replica?.lagBytes === 0;

it(
  "reports the standby's replay lag: 0 when caught up, however long idle; behind by its replay age; degraded past the bound",
  async () => {
    if (standby === undefined || writer === undefined) throw new Error("no setup");
    const idle = await until(readReplica, caughtUp, "the standby to catch up");
    expect(idle.replica).toMatchObject({ name: "Read replica", state: "operational", lagSeconds: 0 });
    // Idle past the bound: the standby's own measure keeps growing although it lacks nothing.
    await new Promise((r) => setTimeout(r, 1500));
    const direct = new pg.Client({ connectionString: standby.url });
    await direct.connect();
    const [{ age } = { age: 0 }] = (
      await direct.query<{ age: number }>(
        "select extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as age",
      )
    ).rows;
    await direct.end();
    expect(age).toBeGreaterThan(1);
    expect((await readReplica()).replica).toMatchObject({ state: "operational", lagSeconds: 0, lagBytes: 0 });

    // A transaction the standby applies 2 s late. Read right after its commit the standby is behind it; on a
    // machine that stalls longer than the delay between the two, the write is tried again.
    let behind: ReplicaComponent | undefined;
    for (let attempt = 0; attempt < 5 && behind === undefined; attempt++) {
      await writer.query("insert into marks default values");
      const { replica } = await readReplica();
      if (replica !== undefined && replica.lagBytes !== 0) behind = replica;
      else await until(readReplica, caughtUp, "the standby to catch up");
    }
    expect(behind?.lagBytes).toBeGreaterThan(0);
    // Its last replayed transaction is older than the idle spell above: past the 1 s bound.
    expect(behind?.lagSeconds).toBeGreaterThan(1);
    expect(behind?.state).toBe("degraded");
    expect(Date.parse(behind?.replayedAt ?? "")).toBeLessThan(Date.now() - 1000);

    // Once applied: nothing behind again.
    const after = await until(readReplica, caughtUp, "the standby to apply the write");
    expect(after.replica).toMatchObject({ state: "operational", lagSeconds: 0 });

    // The standby stopped: the component says so (and the Database component, which checks both, too).
    await standby.halt();
    const stopped = await readReplica();
    expect(stopped.replica).toEqual({
      name: "Read replica",
      state: "down",
      lagSeconds: null,
      lagBytes: null,
      replayedAt: null,
    });
    expect(stopped.database).toBe("down");
  },
  HANG_MS * 3,
);
