import type { ContractEvent, EventsOf } from "@namereg/protocol";
import { describe, expect, it } from "vitest";
import {
  applyAll,
  CHAIN_TIME,
  fakeContext,
  HOLDER,
  NS_NODE,
  namespaceRow,
  REGISTRAR,
  REGISTRY,
  RESOLVER,
} from "../../../test/fixtures/projections.ts";
import { WorkingSet } from "../working-set.ts";
import { ProjectionError } from "./context.ts";

const OTHER = `C${"N".repeat(55)}`;
const NEW_OWNER = `G${"O".repeat(55)}`;

interface Case {
  name: string;
  events: EventsOf<"registry">[];
  namespace: Partial<ReturnType<typeof namespaceRow>>;
  tracked?: Record<string, { role: string; retired: boolean }>;
}

const cases: Case[] = [
  {
    name: "dep_reg routes to a new registrar and retires the old one",
    events: [{ type: "dep_reg", node: NS_NODE, data: OTHER }],
    namespace: { registrar: OTHER },
    tracked: {
      [OTHER]: { role: "registrar", retired: false },
      [REGISTRAR]: { role: "registrar", retired: true },
    },
  },
  {
    name: "set_res(None) removes the resolver and retires it",
    events: [{ type: "set_res", node: NS_NODE, data: null }],
    namespace: { resolver: null },
    tracked: { [RESOLVER]: { role: "resolver", retired: true } },
  },
  {
    name: "reg_upg changes nothing in the mirror",
    events: [{ type: "reg_upg", node: NS_NODE, data: REGISTRAR }],
    namespace: { registrar: REGISTRAR, resolver: RESOLVER },
    tracked: {},
  },
  { name: "locked", events: [{ type: "locked", node: NS_NODE, data: null }], namespace: { locked: true } },
  {
    name: "prop_tr records the proposal",
    events: [{ type: "prop_tr", node: NS_NODE, data: { to: NEW_OWNER, expires: 99n } }],
    namespace: { transferTo: NEW_OWNER, transferExpires: 99n },
  },
  {
    name: "acc_tr moves ownership and clears the proposal",
    events: [
      { type: "prop_tr", node: NS_NODE, data: { to: NEW_OWNER, expires: 99n } },
      { type: "acc_tr", node: NS_NODE, data: { from: HOLDER, to: NEW_OWNER } },
    ],
    namespace: { owner: NEW_OWNER, transferTo: null, transferExpires: null },
  },
  {
    name: "canc_tr clears the proposal",
    events: [
      { type: "prop_tr", node: NS_NODE, data: { to: NEW_OWNER, expires: 99n } },
      { type: "canc_tr", node: NS_NODE, data: null },
    ],
    namespace: { owner: HOLDER, transferTo: null, transferExpires: null },
  },
];

describe("registry projection", () => {
  it.each(cases)("$name", ({ events, namespace, tracked }) => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, namespaceRow());
    const labels = applyAll(fakeContext(ws), REGISTRY, events as ContractEvent[]);
    expect(labels.every((l) => l === "acme")).toBe(true);
    expect(ws.namespaces.get(NS_NODE)).toEqual(namespaceRow(namespace));
    if (tracked !== undefined) {
      const got = Object.fromEntries(
        [...ws.tracked.values()].map((t) => [t.contractId, { role: t.role, retired: t.retired }]),
      );
      expect(got).toEqual(tracked);
    }
  });

  it("ns_v1 creates the namespace from the event and the registry re-read, and tracks its contracts", () => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, null);
    const ctx = fakeContext(ws);
    ctx.reread = () => ({
      label: "acme",
      owner: HOLDER,
      registrar: OTHER,
      resolver: null,
      locked: true,
      allocatedLedger: 10n,
      method: "allocate",
    });
    const [label] = applyAll(ctx, REGISTRY, [
      {
        type: "ns_v1",
        node: NS_NODE,
        data: { label: "acme", owner: HOLDER, resolver: RESOLVER, method: "allocate" },
      },
    ]);
    expect(label).toBe("acme");
    expect(ws.namespaces.get(NS_NODE)).toEqual(
      namespaceRow({
        registrar: OTHER,
        resolver: RESOLVER,
        locked: true,
        allocatedLedger: 10,
        allocatedAt: CHAIN_TIME,
        txHash: "ff".repeat(32),
      }),
    );
    // RESOLVER is already tracked (not retired), so only the new registrar is added.
    expect([...ws.tracked.keys()]).toEqual([OTHER]);
    expect(ws.tracked.get(OTHER)?.namespaceNode).toBe(NS_NODE);
  });

  it("dead-letters an event about a namespace the mirror does not hold", () => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, null);
    expect(() =>
      applyAll(fakeContext(ws), REGISTRY, [{ type: "locked", node: NS_NODE, data: null }]),
    ).toThrow(ProjectionError);
  });

  it("dead-letters a registry event from a contract not tracked as the registry", () => {
    const ws = new WorkingSet();
    ws.namespaces.seed(NS_NODE, namespaceRow());
    expect(() =>
      applyAll(fakeContext(ws), REGISTRAR, [{ type: "locked", node: NS_NODE, data: null }]),
    ).toThrow(/not a tracked registry/);
  });
});
