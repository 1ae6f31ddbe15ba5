import type { ContractEvent } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import { claimKey, objectionKey, WorkingSet } from "../working-set.ts";
import { ProjectionError } from "./context.ts";
import { ALLOCATOR, applyAll, CHAIN_TIME, fakeContext, HOLDER } from "./testing.ts";

const OBJECTOR = `G${"J".repeat(55)}`;
const announce: ContractEvent = {
  type: "clm_ann",
  id: 1n,
  data: {
    id: 1n,
    label: "newco",
    claimant: HOLDER,
    basis: ["trademark"],
    evidence: [{ label: "reg", url: "https://example.org/tm" }],
    state: "announced",
    announcedLedger: 9n,
    deadline: 1000n,
    response: null,
    awardedAt: null,
  },
};
const claim = {
  id: 1n,
  label: "newco",
  claimant: HOLDER,
  basis: ["trademark"],
  evidence: [{ label: "reg", url: "https://example.org/tm" }],
  state: "announced",
  announcedLedger: 9,
  deadline: 1000n,
  response: null,
  awardedAt: null,
  updatedLedger: 10,
};
const object: ContractEvent = {
  type: "clm_obj",
  id: 1n,
  data: { objector: OBJECTOR, basis: ["prior_use"], bond: 5n },
};

const cases: { name: string; events: ContractEvent[]; claim: object; live: boolean | null }[] = [
  { name: "clm_ann creates the claim", events: [announce], claim, live: null },
  {
    name: "clm_obj objects",
    events: [announce, object],
    claim: { ...claim, state: "objected", updatedLedger: 11 },
    live: true,
  },
  {
    name: "obj_end of the last live objection returns the claim to announced",
    events: [
      announce,
      object,
      { type: "obj_end", id: 1n, data: { objector: OBJECTOR, reason: "withdrawn" } },
    ],
    claim: { ...claim, updatedLedger: 12 },
    live: false,
  },
  {
    name: "clm_resp records the response",
    events: [announce, { type: "clm_resp", id: 1n, data: { response: "ours" } }],
    claim: { ...claim, response: "ours", updatedLedger: 11 },
    live: null,
  },
  {
    name: "clm_awd awards at chain time",
    events: [announce, { type: "clm_awd", id: 1n, data: null }],
    claim: { ...claim, state: "awarded", awardedAt: BigInt(CHAIN_TIME.getTime() / 1000), updatedLedger: 11 },
    live: null,
  },
  {
    name: "clm_wd withdraws",
    events: [announce, { type: "clm_wd", id: 1n, data: null }],
    claim: { ...claim, state: "withdrawn", updatedLedger: 11 },
    live: null,
  },
];

describe("allocator projection", () => {
  it.each(cases)("$name", ({ events, claim: expected, live }) => {
    const ws = new WorkingSet();
    ws.claims.seed(claimKey(1n), null);
    const labels = applyAll(fakeContext(ws), ALLOCATOR, events);
    expect(labels.every((l) => l === "newco")).toBe(true);
    expect(ws.claims.get(claimKey(1n))).toEqual(expected);
    expect(ws.objections.get(objectionKey(1n, OBJECTOR))?.live ?? null).toBe(live);
  });

  it("dead-letters an event about an unknown claim", () => {
    const ws = new WorkingSet();
    ws.claims.seed(claimKey(1n), null);
    expect(() => applyAll(fakeContext(ws), ALLOCATOR, [object])).toThrow(ProjectionError);
  });
});
