import { describe, expect, it } from "vitest";
import { loadConformance } from "./openrpc-conformance.ts";

const conformance = loadConformance();

describe("OpenRPC conformance helper", () => {
  it.skipIf(!conformance.available)("flags a result whose field types differ from the document", () => {
    if (!conformance.available) return;
    const { failures, checked } = conformance.validate([
      {
        method: "getHealth",
        params: undefined,
        response: { result: { status: "healthy", latestLedger: "12" } },
      },
      { method: "getLatestLedger", params: undefined, response: { result: { id: "xyz", sequence: 5 } } },
      { method: "getNetwork", params: undefined, response: { error: { code: -32603, message: "boom" } } },
    ]);
    expect(failures).toHaveLength(2);
    expect(failures[0]).toMatch(/^getHealth: .*latestLedger must be number/);
    expect(failures[1]).toMatch(/^getLatestLedger: .*id must/);
    expect(checked.get("getNetwork")).toBeUndefined();
  });

  it.skipIf(!conformance.available)(
    "applies the sendTransaction wire-note exception (close time as a string)",
    () => {
      if (!conformance.available) return;
      const result = {
        status: "PENDING",
        hash: "a".repeat(64),
        latestLedger: 5,
        latestLedgerCloseTime: "1700000000",
      };
      expect(
        conformance.validate([{ method: "sendTransaction", params: undefined, response: { result } }])
          .failures,
      ).toEqual([]);
      const asNumber = { ...result, latestLedgerCloseTime: 1_700_000_000 };
      expect(
        conformance.validate([
          { method: "sendTransaction", params: undefined, response: { result: asNumber } },
        ]).failures,
      ).toHaveLength(1);
    },
  );
});
