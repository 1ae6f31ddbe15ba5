import { setTimeout as sleep } from "node:timers/promises";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase, withTestDatabases } from "../../test/fixtures/database.ts";
import { openDatabase } from "./database.ts";
import { meta } from "./schema.ts";
import type { Database } from "./types.ts";

function nextPayload(
  database: Database,
  channel: string,
): Promise<{ payload: Promise<string>; close(): Promise<void> }> {
  let resolve: (payload: string) => void = () => {};
  const payload = new Promise<string>((r) => {
    resolve = r;
  });
  return database.listen(channel, resolve).then((subscription) => ({ payload, close: subscription.close }));
}

/** Polls until some session waits for the advisory lock `key`. */
async function untilWaiting(database: Database, key: number): Promise<void> {
  const sql = "select 1 from pg_locks where locktype = 'advisory' and objid = $1 and not granted";
  while ((await database.query(sql, [key])).length === 0) await sleep(10);
}

withTestDatabases((t) => {
  it("migrates, writes and reads", async () => {
    const database = t.db();
    await database.db.insert(meta).values({ key: `k-${t.kind}`, value: "v1" });
    await database.db
      .insert(meta)
      .values({ key: `k-${t.kind}`, value: "v2" })
      .onConflictDoUpdate({ target: meta.key, set: { value: "v2" } });
    const rows = await database.replica
      .select()
      .from(meta)
      .where(eq(meta.key, `k-${t.kind}`));
    expect(rows.map((r) => r.value)).toEqual(["v2"]);
  });

  it("rolls back a failed transaction", async () => {
    const database = t.db();
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(meta).values({ key: "rolled-back", value: "x" });
        await tx.execute("select * from no_such_table");
      }),
    ).rejects.toThrow();
    expect(await database.query("select key from meta where key = 'rolled-back'")).toEqual([]);
  });

  it("applies migrations once", async () => {
    await t.db().migrate();
    const [row] = await t
      .db()
      .query<{ n: number }>("select count(*)::int as n from drizzle.__drizzle_migrations");
    expect(row?.n).toBeGreaterThanOrEqual(1);
  });

  it("is healthy", async () => {
    expect(await t.db().healthy()).toBe(true);
  });

  it("delivers a notification to a listener", async () => {
    const listener = await nextPayload(t.db(), "integration_test");
    await t.db().notify("integration_test", "payload-1");
    expect(await listener.payload).toBe("payload-1");
    await listener.close();
  });

  it("delivers a notification sent inside a transaction once it commits", async () => {
    const listener = await nextPayload(t.db(), "tx_channel");
    await t.db().db.transaction(async (tx) => {
      await tx.insert(meta).values({ key: `tx-${t.kind}`, value: "x" });
      await tx.execute("select pg_notify('tx_channel', 'committed')");
    });
    expect(await listener.payload).toBe("committed");
    await listener.close();
  });
});

describe("PostgreSQL across connections and processes", () => {
  let database: TestDatabase;
  let other: Database;
  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    other = await openDatabase({ url: database.url });
  });
  afterAll(async () => {
    await other?.close();
    await database?.close();
  });

  it("lets one session hold an advisory lock while another is refused, then waits for it", async () => {
    const lock = await database.tryAdvisoryLock(1001);
    expect(lock).not.toBeNull();
    expect(await other.tryAdvisoryLock(1001)).toBeNull();
    const waiting = other.advisoryLock(1001);
    await untilWaiting(database, 1001);
    await lock?.release();
    const taken = await waiting;
    expect(await database.tryAdvisoryLock(1001)).toBeNull();
    await taken.release();
    const again = await database.tryAdvisoryLock(1001);
    expect(again).not.toBeNull();
    await again?.release();
  });

  it("gives up waiting for a lock when aborted", async () => {
    const lock = await database.tryAdvisoryLock(1002);
    const controller = new AbortController();
    const waiting = other.advisoryLock(1002, { signal: controller.signal });
    await untilWaiting(database, 1002);
    controller.abort(new Error("standby stopping"));
    await expect(waiting).rejects.toThrow("standby stopping");
    await lock?.release();
  });

  it("signals a lock lost when its session is killed, and the lock is free again", async () => {
    const lock = await database.tryAdvisoryLock(1003);
    if (lock === null) throw new Error("lock not granted");
    const lost = new Promise<void>((resolve) => lock.lost.addEventListener("abort", () => resolve()));
    await other.query(
      "select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory' and objid = $1 and granted",
      [1003],
    );
    await lost;
    const taken = await other.advisoryLock(1003);
    await taken.release();
    await lock.release();
  });

  it("notifies listeners on another connection, and re-listens after its connection is killed", async () => {
    let reconnected: () => void = () => {};
    const back = new Promise<void>((resolve) => {
      reconnected = resolve;
    });
    const payloads: string[] = [];
    let heard: (payload: string) => void = () => {};
    const subscription = await other.listen(
      "cache_flush",
      (payload) => {
        payloads.push(payload);
        heard(payload);
      },
      { onReconnect: () => reconnected() },
    );
    const heardOne = () =>
      new Promise<string>((resolve) => {
        heard = resolve;
      });

    let next = heardOne();
    await database.notify("cache_flush", "first");
    expect(await next).toBe("first");

    await database.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN%'",
    );
    await back;
    next = heardOne();
    await database.notify("cache_flush", "second");
    expect(await next).toBe("second");
    expect(payloads).toEqual(["first", "second"]);
    await subscription.close();
  });

  it("reads through a separate replica pool when a read URL is given", async () => {
    const withReader = await openDatabase({
      url: database.url,
      readUrl: `${database.url}?application_name=replica`,
    });
    try {
      expect(withReader.replica).not.toBe(withReader.db);
      await withReader.db.insert(meta).values({ key: "via-writer", value: "seen" });
      const rows = await withReader.replica
        .select({ value: meta.value })
        .from(meta)
        .where(eq(meta.key, "via-writer"));
      expect(rows).toEqual([{ value: "seen" }]);
      expect(await withReader.healthy()).toBe(true);
    } finally {
      await withReader.close();
    }
  });

  it("lets several processes migrate a fresh database at once", async () => {
    const fresh = await createTestDatabase("postgres", { migrate: false });
    const peers = await Promise.all([openDatabase({ url: fresh.url }), openDatabase({ url: fresh.url })]);
    try {
      await Promise.all([fresh.migrate(), ...peers.map((p) => p.migrate())]);
      await fresh.db.insert(meta).values({ key: "after-race", value: "ok" });
      expect(await peers[0]?.query("select value from meta")).toEqual([{ value: "ok" }]);
    } finally {
      await Promise.all(peers.map((p) => p.close()));
      await fresh.close();
    }
  });

  it("reports unhealthy, without throwing, when the server cannot be reached", async () => {
    const unreachable = await openDatabase({ url: "postgres://postgres@127.0.0.1:1/none" });
    expect(await unreachable.healthy()).toBe(false);
    await unreachable.close();
  });
});
