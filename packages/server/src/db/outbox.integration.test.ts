// The outbox on both databases: rows commit with the writing transaction and not without it, a replay writes
// nothing twice, positions follow the drafts' order, listeners hear the highest new position on commit, and
// pruning moves the horizon a resuming reader is judged by.
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { withTestDatabases } from "../../test/fixtures/database.ts";
import type { ChangeDraft } from "../changes/catalogue.ts";
import {
  appendChanges,
  CHANGES_CHANNEL,
  changePayload,
  outboxBounds,
  pruneChanges,
  readChanges,
  toChangeEvent,
} from "./outbox.ts";

const draft = (eventId: string, namespace = "acme", key = "avatar"): ChangeDraft => ({
  type: "record.text_changed",
  namespace,
  name: `alice.${namespace}`,
  node: "ab".repeat(32),
  ledger: 42,
  txHash: "cd".repeat(32),
  eventId,
  at: new Date("2026-11-18T17:25:09.000Z"),
  data: { key },
});

withTestDatabases((t) => {
  it("commits with its transaction, writes nothing on rollback, and a replay adds nothing", async () => {
    const heard: string[] = [];
    const subscription = await t.db().listen(CHANGES_CHANNEL, (p) => heard.push(p));
    try {
      const { head: before } = await outboxBounds(t.db().db);
      await expect(
        t.db().db.transaction(async (tx) => {
          await appendChanges(tx, [draft("rolled-back")]);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await readChanges(t.db().db, before, 10)).toEqual([]);

      const drafts = [draft("e1", "acme", "k1"), draft("e2", "acme", "k2"), draft("e3", "plain", "k3")];
      await t.db().db.transaction((tx) => appendChanges(tx, drafts));
      await t.db().db.transaction((tx) => appendChanges(tx, drafts, { backfill: true }));
      const rows = await readChanges(t.db().db, before, 10);
      expect(rows.map((r) => [r.eventId, r.data, r.backfill])).toEqual([
        ["e1", { key: "k1" }, false],
        ["e2", { key: "k2" }, false],
        ["e3", { key: "k3" }, false],
      ]);
      const ids = rows.map((r) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      while (heard.length < 1) await sleep(10);
      await sleep(50);
      // One notification for the one transaction that wrote; the replay wrote nothing and announced nothing.
      expect(heard).toEqual([String(ids[2])]);
      expect((await outboxBounds(t.db().db)).head).toBe(ids[2]);

      const first = rows[0];
      if (first === undefined) throw new Error("no row");
      expect(toChangeEvent(first)).toEqual({
        type: "record.text_changed",
        timestamp: first.createdAt.toISOString(),
        data: {
          namespace: "acme",
          name: "alice.acme",
          node: "ab".repeat(32),
          ledger: 42,
          txHash: "cd".repeat(32),
          eventId: "e1",
          at: "2026-11-18T17:25:09.000Z",
          backfill: false,
          key: "k1",
        },
      });
      expect(JSON.parse(changePayload(first))).toEqual(toChangeEvent(first));
      expect(await readChanges(t.db().db, before, 10, { namespace: "plain" })).toHaveLength(1);
      expect(
        await readChanges(t.db().db, before, 10, { name: "alice.acme", types: ["name.issued"] }),
      ).toEqual([]);
    } finally {
      await subscription.close();
    }
  });

  it("writes a back-fill's many drafts in order, announces the highest, and a replay adds only the new ones", async () => {
    // 200 drafts take the COPY path on PostgreSQL; the replay (half already there) takes the statement.
    const heard: string[] = [];
    const subscription = await t.db().listen(CHANGES_CHANNEL, (p) => heard.push(p));
    try {
      const db = t.db().db;
      const { head: before } = await outboxBounds(db);
      const many = Array.from({ length: 200 }, (_, i) =>
        draft(`bulk-${i}`, i % 2 === 0 ? "acme" : "plain", `k\t${i}`),
      );
      await db.transaction((tx) => appendChanges(tx, many.slice(0, 100), { backfill: true }));
      await db.transaction((tx) => appendChanges(tx, many, { backfill: true }));
      const rows = await readChanges(db, before, 1000);
      expect(rows.map((r) => [r.eventId, r.namespace, r.data, r.backfill])).toEqual(
        many.map((d, i) => [`bulk-${i}`, d.namespace, { key: `k\t${i}` }, true]),
      );
      const ids = rows.map((r) => r.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(rows[0]?.at?.toISOString()).toBe("2026-11-18T17:25:09.000Z");
      expect(rows[0]?.name).toBe("alice.acme");
      while (heard.length < 2) await sleep(10);
      expect(heard).toEqual([String(ids[99]), String(ids[199])]);
    } finally {
      await subscription.close();
    }
  });

  it("prunes what is older than the cut-off and records the horizon", async () => {
    const db = t.db().db;
    await db.transaction((tx) => appendChanges(tx, [draft("old-1"), draft("old-2")]));
    const cut = new Date(Date.now() + 1000);
    const old = await readChanges(db, 0, 1000);
    const lastOld = old.at(-1)?.id ?? 0;
    expect(await pruneChanges(db, cut)).toBe(old.length);
    expect(await outboxBounds(db)).toEqual({ head: lastOld, prunedThrough: lastOld });
    expect(await pruneChanges(db, cut)).toBe(0);
    expect((await outboxBounds(db)).prunedThrough).toBe(lastOld);
  });
});
