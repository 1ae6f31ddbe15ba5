import type { ContractEvent } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import { applyAll, fakeContext, HOLDER, PRIMARY } from "../../../test/fixtures/projections.ts";
import { type PrimaryRow, WorkingSet } from "../working-set.ts";

const cases: { name: string; events: ContractEvent[]; row: PrimaryRow | null }[] = [
  {
    name: "set_pri sets the primary name",
    events: [{ type: "set_pri", address: HOLDER, data: { name: "alice.acme" } }],
    row: { address: HOLDER, name: "alice.acme", ledger: 10, txHash: "ff".repeat(32) },
  },
  {
    name: "clr_pri removes it",
    events: [
      { type: "set_pri", address: HOLDER, data: { name: "alice.acme" } },
      { type: "clr_pri", address: HOLDER, data: null },
    ],
    row: null,
  },
];

describe("primary projection", () => {
  it.each(cases)("$name", ({ events, row }) => {
    const ws = new WorkingSet();
    ws.primary.seed(HOLDER, null);
    expect(applyAll(fakeContext(ws), PRIMARY, events)).toEqual(events.map(() => null));
    expect(ws.primary.get(HOLDER)).toEqual(row);
    expect(ws.primary.changed().deletes).toEqual(row === null ? [HOLDER] : []);
  });
});
