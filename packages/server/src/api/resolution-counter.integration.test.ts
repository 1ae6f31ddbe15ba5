// The resolution counter's batched UPSERT, on PGlite and on PostgreSQL.
import { eq } from "drizzle-orm";
import { pino } from "pino";
import { expect, it } from "vitest";
import { withTestDatabases } from "../../test/fixtures/database.ts";
import { unreachableDatabase } from "../../test/fixtures/routes.ts";
import { nameStats } from "../db/tables.ts";
import { ResolutionCounter } from "./resolution-counter.ts";

const log = pino({ level: "silent" });
const node = (n: number) => `c0${n.toString(16).padStart(62, "0")}`;

withTestDatabases((t) => {
  const stored = async (n: number) => {
    const [row] = await t
      .db()
      .db.select()
      .from(nameStats)
      .where(eq(nameStats.node, node(n)));
    return row === undefined ? null : Number(row.resolutions);
  };

  it("counts in memory until a flush adds the deltas to the stored counts", async () => {
    const counter = new ResolutionCounter(t.db().db, log);
    counter.increment(node(1));
    counter.increment(node(1));
    counter.increment(node(2));
    expect([counter.unflushed(node(1)), counter.unflushed(node(2)), counter.unflushed(node(3))]).toEqual([
      2, 1, 0,
    ]);
    expect(await stored(1)).toBeNull();
    await counter.flush();
    expect([await stored(1), await stored(2)]).toEqual([2, 1]);
    expect(counter.unflushed(node(1))).toBe(0);

    // A second process (another replica) adds to the same rows rather than overwriting them.
    const other = new ResolutionCounter(t.db().db, log);
    other.increment(node(1));
    counter.increment(node(1));
    await Promise.all([other.close(), counter.close()]);
    expect([await stored(1), await stored(2)]).toEqual([4, 1]);
  });

  it("counts through a kept cell within a flush period and through a fresh one after it", async () => {
    const counter = new ResolutionCounter(t.db().db, log);
    let kept = counter.count(null, node(7));
    kept = counter.count(kept, node(7));
    counter.increment(node(7));
    expect(counter.count(kept, node(7))).toBe(kept);
    expect(counter.unflushed(node(7))).toBe(4);
    await counter.flush();
    expect(await stored(7)).toBe(4);
    // The flushed cell is not counted again: the next count goes to a cell of the new period.
    const fresh = counter.count(kept, node(7));
    expect(fresh).not.toBe(kept);
    expect(counter.count(fresh, node(7))).toBe(fresh);
    expect(counter.unflushed(node(7))).toBe(2);
    await counter.close();
    expect(await stored(7)).toBe(6);
  });

  it("keeps the deltas of a failed flush for the next one", async () => {
    const database = t.db();
    let broken = true;
    const db = new Proxy(database.db, {
      get: (target, key, receiver) =>
        broken ? Reflect.get(unreachableDatabase(database).db, key) : Reflect.get(target, key, receiver),
    });
    const counter = new ResolutionCounter(db, log);
    counter.increment(node(5));
    await counter.flush();
    expect(counter.unflushed(node(5))).toBe(1);
    expect(await stored(5)).toBeNull();
    broken = false;
    counter.increment(node(5));
    await counter.flush();
    expect(await stored(5)).toBe(2);
    expect(counter.unflushed(node(5))).toBe(0);
  });

  it("writes large batches in several statements", async () => {
    const counter = new ResolutionCounter(t.db().db, log);
    for (let i = 0; i < 12_000; i++) counter.increment(`d0${i.toString(16).padStart(62, "0")}`);
    await counter.close();
    const [row] = await t
      .db()
      .query<{ n: string }>("select count(*) as n from name_stats where node like 'd0%'");
    expect(Number(row?.n)).toBe(12_000);
  });
});
