import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "./database.ts";
import { meta } from "./schema.ts";
import type { Database } from "./types.ts";

describe("openDatabase on in-memory PGlite", () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ url: "memory://" });
    await database.migrate();
  });
  afterAll(async () => {
    await database.close();
  });

  it("is one connection for reading and writing", () => {
    expect(database.kind).toBe("pglite");
    expect(database.replica).toBe(database.db);
  });

  it("has, as its own replica, every migration the code ships once migrated", async () => {
    const schema = await database.replicaSchema();
    expect(schema).toMatchObject({ current: true, latest: expect.stringMatching(/^\d{4}_/) });
    expect(schema.applied).toBe(schema.shipped);
  });

  it("migrates, writes and reads with drizzle", async () => {
    await database.db.insert(meta).values({ key: "greeting", value: "hello" });
    const [row] = await database.replica.select().from(meta).where(eq(meta.key, "greeting"));
    expect(row?.value).toBe("hello");
    expect(row?.updatedAt).toBeInstanceOf(Date);
  });

  it("migrates again without harm", async () => {
    await database.migrate();
    expect(await database.query("select count(*)::int as n from meta where key = $1", ["greeting"])).toEqual([
      { n: 1 },
    ]);
  });

  it("runs raw SQL with parameters", async () => {
    expect(await database.query<{ sum: number }>("select $1::int + $2::int as sum", [2, 3])).toEqual([
      { sum: 5 },
    ]);
  });

  it("is healthy while open", async () => {
    expect(await database.healthy()).toBe(true);
  });

  it("delivers notifications in-process until the subscription closes", async () => {
    const received: string[] = [];
    let heard: () => void = () => {};
    const first = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const subscription = await database.listen("names_changed", (payload) => {
      received.push(payload);
      heard();
    });
    await database.notify("names_changed", "alice.acme");
    await first;
    await subscription.close();
    await database.notify("names_changed", "bob.acme");
    await database.query("select 1");
    expect(received).toEqual(["alice.acme"]);
  });

  it("rejects channel names that are not plain identifiers", async () => {
    await expect(database.listen("x; drop table meta", () => {})).rejects.toThrow(/channel/);
    await expect(database.notify("Bad-Name", "x")).rejects.toThrow(/channel/);
  });

  it("grants an advisory lock to one holder at a time", async () => {
    const lock = await database.tryAdvisoryLock(42);
    expect(lock?.key).toBe(42n);
    expect(await database.tryAdvisoryLock(42n)).toBeNull();
    const other = await database.tryAdvisoryLock(43);
    expect(other).not.toBeNull();
    const waiting = database.advisoryLock(42);
    await lock?.release();
    const next = await waiting;
    expect(next.lost.aborted).toBe(false);
    await next.release();
    await other?.release();
  });

  it("stops waiting for a lock when the wait is aborted", async () => {
    const lock = await database.tryAdvisoryLock(7);
    const controller = new AbortController();
    const waiting = database.advisoryLock(7, { signal: controller.signal });
    controller.abort(new Error("shutting down"));
    await expect(waiting).rejects.toThrow("shutting down");
    await lock?.release();
    const again = await database.tryAdvisoryLock(7);
    expect(again).not.toBeNull();
    await again?.release();
  });
});

describe("openDatabase on a PGlite directory", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "namereg-pglite-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps data across reopening, and marks held locks lost on close", async () => {
    const url = pathToFileURL(join(dir, "nested", "pglite")).href;
    const first = await openDatabase({ url });
    await first.migrate();
    await first.db.insert(meta).values({ key: "kept", value: "yes" });
    const lock = await first.tryAdvisoryLock(1);
    await first.close();
    expect(lock?.lost.aborted).toBe(true);
    expect(await first.healthy()).toBe(false);

    const second = await openDatabase({ url });
    await second.migrate();
    expect(await second.db.select({ value: meta.value }).from(meta).where(eq(meta.key, "kept"))).toEqual([
      { value: "yes" },
    ]);
    await second.close();
  });
});

describe("openDatabase", () => {
  it("refuses URLs it cannot open", async () => {
    await expect(openDatabase({ url: "mysql://app:pw@db/x" })).rejects.toThrow(
      "unsupported database URL mysql://app:***@db/x",
    );
  });
});
