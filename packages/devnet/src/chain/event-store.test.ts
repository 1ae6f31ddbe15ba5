import { describe, expect, it } from "vitest";
import { EventStore, type StoredEvent } from "./event-store.ts";

function ev(tx: number, event: number, contractId = "CA"): StoredEvent {
  return {
    type: "contract",
    contractId,
    topics: ["t"],
    value: "v",
    tx,
    op: 0,
    event,
    txHash: "",
    inSuccessfulContractCall: true,
  };
}

describe("EventStore", () => {
  it("scans from a position inside a ledger to the window end, in order, up to the limit", () => {
    const store = new EventStore();
    store.append(1, 1000, [ev(1, 0), ev(1, 1), ev(2, 0)]);
    store.append(2, 1005, []);
    store.append(3, 1010, [ev(1, 0, "CB"), ev(1, 1)]);
    const all = store.scan({ ledger: 1, tx: 0, op: 0, event: 0 }, 4, [], 100);
    expect(all.map((f) => [f.ledger, f.stored.tx, f.stored.event])).toEqual([
      [1, 1, 0],
      [1, 1, 1],
      [1, 2, 0],
      [3, 1, 0],
      [3, 1, 1],
    ]);
    const after = store.scan({ ledger: 1, tx: 1, op: 0, event: 1 }, 3, [], 100);
    expect(after.map((f) => [f.ledger, f.stored.tx, f.stored.event])).toEqual([
      [1, 1, 1],
      [1, 2, 0],
    ]);
    expect(
      store.scan({ ledger: 1, tx: 0, op: 0, event: 0 }, 4, [{ contractIds: new Set(["CB"]) }], 100),
    ).toHaveLength(1);
    expect(store.scan({ ledger: 1, tx: 0, op: 0, event: 0 }, 4, [], 2)).toHaveLength(2);
  });

  it("forgets ledgers below the retention boundary", () => {
    const store = new EventStore();
    for (let l = 10; l < 20; l++) store.append(l, 1000 + l, [ev(1, 0)]);
    store.prune(15);
    expect(store.count).toBe(5);
    expect(store.eventsOf(14)).toEqual([]);
    expect(store.scan({ ledger: 10, tx: 0, op: 0, event: 0 }, 20, [], 100).map((f) => f.ledger)).toEqual([
      15, 16, 17, 18, 19,
    ]);
  });

  it("accepts ledgers only in sequence", () => {
    const store = new EventStore();
    store.append(5, 0, []);
    expect(() => store.append(7, 0, [])).toThrow(/expected ledger 6/);
  });
});
