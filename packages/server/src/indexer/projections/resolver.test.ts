import { type ContractEvent, childNode, type EventsOf } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import {
  applyAll,
  fakeContext,
  HOLDER,
  NS_NODE,
  namespaceRow,
  RESOLVER,
} from "../../../test/fixtures/projections.ts";
import { type ResolverRow, WorkingSet } from "../working-set.ts";

const ALICE = childNode(NS_NODE, "alice");
const OTHER = `G${"Q".repeat(55)}`;

const blank: ResolverRow = {
  node: ALICE,
  generation: 1n,
  address: null,
  paymentAddress: null,
  paymentMemo: null,
  textKeys: [],
  chainNetworks: [],
  displayFor: null,
  updatedLedger: 10,
};

const g = (generation: bigint) => ({ node: ALICE, generation });

const cases: { name: string; events: EventsOf<"resolver">[]; row: ResolverRow }[] = [
  {
    name: "addr_v1 sets the address",
    events: [{ type: "addr_v1", ...g(1n), data: HOLDER }],
    row: { ...blank, address: HOLDER },
  },
  {
    name: "text_v1 collects distinct keys",
    events: [
      { type: "text_v1", ...g(1n), data: "avatar" },
      { type: "text_v1", ...g(1n), data: "url" },
      { type: "text_v1", ...g(1n), data: "avatar" },
    ],
    row: { ...blank, textKeys: ["avatar", "url"], updatedLedger: 12 },
  },
  {
    name: "pay_v1 sets payment address and memo",
    events: [{ type: "pay_v1", ...g(1n), data: { address: HOLDER, memo: "42" } }],
    row: { ...blank, paymentAddress: HOLDER, paymentMemo: "42" },
  },
  {
    name: "chn_v1 collects networks",
    events: [{ type: "chn_v1", ...g(1n), data: { network: "ethereum" } }],
    row: { ...blank, chainNetworks: ["ethereum"] },
  },
  {
    name: "a newer generation starts the records afresh but keeps the display name",
    events: [
      { type: "disp_v1", node: ALICE, data: { address: OTHER } },
      { type: "addr_v1", ...g(1n), data: HOLDER },
      { type: "text_v1", ...g(2n), data: "url" },
    ],
    row: { ...blank, generation: 2n, textKeys: ["url"], displayFor: OTHER, updatedLedger: 12 },
  },
  {
    name: "an older generation's record is applied to the current row",
    events: [
      { type: "text_v1", ...g(2n), data: "url" },
      { type: "addr_v1", ...g(1n), data: HOLDER },
    ],
    row: { ...blank, generation: 2n, textKeys: ["url"], address: HOLDER, updatedLedger: 11 },
  },
];

describe("resolver projection", () => {
  it.each(cases)("$name", ({ events, row }) => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, namespaceRow());
    ws.resolver.seed(ALICE, null);
    const labels = applyAll(fakeContext(ws), RESOLVER, events as ContractEvent[]);
    expect(labels.every((l) => l === "acme")).toBe(true);
    expect(ws.resolver.get(ALICE)).toEqual(row);
    expect([...ws.changedNodes]).toEqual([ALICE]);
  });

  it("chn_pol sets the namespace's networks", () => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, namespaceRow());
    const [label] = applyAll(fakeContext(ws), RESOLVER, [
      { type: "chn_pol", data: { networks: ["bitcoin"] } },
    ]);
    expect(label).toBe("acme");
    expect(ws.namespaces.get(NS_NODE)?.chainNetworks).toEqual(["bitcoin"]);
  });
});
