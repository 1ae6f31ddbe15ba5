// The change feed: a batch's nodes and namespaces reach listeners on commit, in payloads under NOTIFY's size
// limit, and a batch that rolls back announces nothing.
import { setTimeout as sleep } from "node:timers/promises";
import { expect, it } from "vitest";
import { withTestDatabases } from "../../test/fixtures/database.ts";
import { NODE_CHANNEL, notifyNodeChanges } from "./node-changes.ts";

const node = (n: number): string => n.toString(16).padStart(64, "0");

withTestDatabases((t) => {
  it("delivers every node and namespace on commit, 100 items a payload, and nothing on rollback", async () => {
    const payloads: string[] = [];
    const subscription = await t.db().listen(NODE_CHANNEL, (p) => payloads.push(p));
    try {
      await expect(
        t.db().db.transaction(async (tx) => {
          await notifyNodeChanges(tx, [node(999_999)]);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      const nodes = Array.from({ length: 250 }, (_, i) => node(i + 1));
      await t.db().db.transaction(async (tx) => {
        await notifyNodeChanges(tx, nodes, ["acme", "zeta"]);
      });
      while (payloads.length < 3) await sleep(10);
      expect(payloads.map((p) => p.split(",").length)).toEqual([100, 100, 52]);
      expect(payloads.join(",").split(",")).toEqual([...nodes, "ns:acme", "ns:zeta"]);
    } finally {
      await subscription.close();
    }
  });
});
