import { type ContractEvent, childNode, type EventsOf } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import {
  applyAll,
  CHAIN_TIME,
  fakeContext,
  HOLDER,
  NS_NODE,
  nameRow,
  namespaceRow,
  REGISTRAR,
} from "../../../test/fixtures/projections.ts";
import { WorkingSet } from "../working-set.ts";
import { ProjectionError } from "./context.ts";

const ALICE = childNode(NS_NODE, "alice");
const PAY = childNode(ALICE, "pay");
const BUYER = `G${"B".repeat(55)}`;
const TX = "ff".repeat(32);

const issue: EventsOf<"registrar"> = {
  type: "name_v1",
  node: ALICE,
  generation: 1n,
  data: { label: "alice", action: "issue", holder: HOLDER, address: HOLDER, expiresAt: 0n },
};

function issuedAt(ledger: number) {
  return nameRow(ALICE, "alice", {
    issuedLedger: ledger,
    updatedLedger: ledger,
    txHash: TX,
    issuedAt: CHAIN_TIME,
  });
}

interface Case {
  name: string;
  seedName?: boolean;
  events: EventsOf<"registrar">[];
  name_?: ReturnType<typeof nameRow> | null;
  issuedNames: number;
  history: string[];
}

const cases: Case[] = [
  {
    name: "issue creates the name and counts it",
    events: [issue],
    name_: issuedAt(10),
    issuedNames: 1,
    history: ["issued"],
  },
  {
    name: "renew keeps the issuance and sets the new expiry",
    events: [issue, { ...issue, data: { ...issue.data, action: "renew", expiresAt: 500n } }],
    name_: { ...issuedAt(10), expiresAt: 500n, updatedLedger: 11 },
    issuedNames: 1,
    history: ["issued"],
  },
  {
    name: "transfer changes the holder and clears a proposal",
    events: [
      issue,
      {
        type: "xfer_v1",
        node: ALICE,
        generation: 1n,
        data: {
          label: "alice",
          action: "propose",
          holder: HOLDER,
          to: BUYER,
          proposalExpires: 77n,
          expiresAt: 0n,
        },
      },
      { ...issue, data: { ...issue.data, action: "transfer", holder: BUYER, address: BUYER } },
    ],
    name_: { ...issuedAt(10), holder: BUYER, address: BUYER, updatedLedger: 12 },
    issuedNames: 1,
    history: ["issued", "transferred"],
  },
  {
    name: "reclaim deactivates the name and uncounts it",
    events: [issue, { ...issue, data: { ...issue.data, action: "reclaim" } }],
    name_: { ...issuedAt(10), active: false, updatedLedger: 11 },
    issuedNames: 0,
    history: ["issued", "reclaimed"],
  },
  {
    name: "a transfer proposal is recorded on the name",
    seedName: true,
    events: [
      {
        type: "xfer_v1",
        node: ALICE,
        generation: 1n,
        data: {
          label: "alice",
          action: "propose",
          holder: HOLDER,
          to: BUYER,
          proposalExpires: 77n,
          expiresAt: 0n,
        },
      },
    ],
    name_: nameRow(ALICE, "alice", { transferTo: BUYER, transferExpires: 77n, updatedLedger: 10 }),
    issuedNames: 0,
    history: [],
  },
];

describe("registrar projection", () => {
  it.each(cases)("$name", ({ events, seedName, name_, issuedNames, history }) => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, namespaceRow());
    ws.names.seed(ALICE, seedName ? nameRow(ALICE, "alice") : null);
    const labels = applyAll(fakeContext(ws), REGISTRAR, events as ContractEvent[]);
    expect(labels.every((l) => l === "acme")).toBe(true);
    expect(ws.names.get(ALICE)).toEqual(name_);
    expect(ws.namespaces.get(NS_NODE)?.issuedNames).toBe(issuedNames);
    expect(ws.history.map((h) => h.action)).toEqual(history);
    expect(ws.changedNodes.has(ALICE)).toBe(history.length > 0);
  });

  it("sub_v1 creates and removes a subname under a known parent", () => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, namespaceRow());
    ws.names.seed(ALICE, nameRow(ALICE, "alice"));
    const sub = (action: "create" | "remove"): ContractEvent => ({
      type: "sub_v1",
      node: PAY,
      generation: 1n,
      data: { parent: ALICE, child: "pay", action, address: HOLDER },
    });
    applyAll(fakeContext(ws), REGISTRAR, [sub("create")]);
    const created = {
      node: PAY,
      parentNode: ALICE,
      namespace: "acme",
      parentLabel: "alice",
      child: "pay",
      generation: 1n,
      exists: true,
      address: HOLDER,
      ledger: 10,
    };
    expect(ws.subnames.get(PAY)).toEqual(created);
    applyAll(fakeContext(ws), REGISTRAR, [sub("remove")], 11);
    expect(ws.subnames.get(PAY)).toEqual({ ...created, exists: false, ledger: 11 });
  });

  it("sub_pol sets the namespace's subname policy", () => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, namespaceRow());
    applyAll(fakeContext(ws), REGISTRAR, [{ type: "sub_pol", data: { policy: "suspended" } }]);
    expect(ws.namespaces.get(NS_NODE)?.subnamePolicy).toBe("suspended");
  });

  it.each<[string, ContractEvent]>([
    ["a name whose node is not label.namespace", { ...issue, node: PAY }],
    ["a renewal of a name never issued", { ...issue, data: { ...issue.data, action: "renew" } }],
    [
      "a subname whose node does not match its parent",
      {
        type: "sub_v1",
        node: ALICE,
        generation: 1n,
        data: { parent: ALICE, child: "pay", action: "create", address: HOLDER },
      },
    ],
  ])("dead-letters %s", (_, event) => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, namespaceRow());
    ws.names.seed(ALICE, null);
    ws.names.seed(PAY, null);
    expect(() => applyAll(fakeContext(ws), REGISTRAR, [event])).toThrow(ProjectionError);
  });
});
