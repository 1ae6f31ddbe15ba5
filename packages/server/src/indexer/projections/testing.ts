// A projection context over an in-memory working set, for the projections' table-driven unit tests.
import type { ContractEvent } from "@namereg/protocol";
import type { ArchiveRow } from "../decode.ts";
import { type NameRow, type NamespaceRow, type TrackedRow, WorkingSet } from "../working-set.ts";
import type { ProjectionContext, Role } from "./context.ts";
import { project } from "./index.ts";

export const NS_NODE = "aa".repeat(32);
export const REGISTRY = `C${"R".repeat(55)}`;
export const REGISTRAR = `C${"A".repeat(55)}`;
export const RESOLVER = `C${"S".repeat(55)}`;
export const PRIMARY = `C${"P".repeat(55)}`;
export const ALLOCATOR = `C${"L".repeat(55)}`;
export const HOLDER = `G${"H".repeat(55)}`;
export const CHAIN_TIME = new Date("2026-01-02T03:04:05Z");

export function trackedRow(contractId: string, role: Role, namespaceNode: string | null = null): TrackedRow {
  return {
    contractId,
    role,
    namespaceNode,
    startLedger: 1,
    retired: false,
    streamId: 0,
    discoveredAt: new Date(0),
  };
}

export function namespaceRow(over: Partial<NamespaceRow> = {}): NamespaceRow {
  return {
    node: NS_NODE,
    label: "acme",
    owner: HOLDER,
    registrar: REGISTRAR,
    resolver: RESOLVER,
    locked: false,
    method: "allocate",
    allocatedLedger: 2,
    allocatedAt: CHAIN_TIME,
    txHash: "00".repeat(32),
    subnamePolicy: "enabled",
    chainNetworks: [],
    transferTo: null,
    transferExpires: null,
    issuedNames: 0,
    ...over,
  };
}

export function nameRow(node: string, label: string, over: Partial<NameRow> = {}): NameRow {
  return {
    node,
    namespace: "acme",
    label,
    holder: HOLDER,
    address: HOLDER,
    expiresAt: null,
    generation: 1n,
    active: true,
    issuedLedger: 3,
    issuedAt: CHAIN_TIME,
    txHash: "11".repeat(32),
    updatedLedger: 3,
    transferTo: null,
    transferExpires: null,
    ...over,
  };
}

export function archiveRow(contractId: string, ledger = 10, at: Date | null = CHAIN_TIME): ArchiveRow {
  return {
    id: `${ledger}-1`,
    contractId,
    ledger,
    at,
    txHash: "ff".repeat(32),
    transactionIndex: 0,
    operationIndex: 0,
    inSuccessfulContractCall: true,
    topics: [],
    value: "",
    type: null,
    subject: null,
    namespace: null,
  };
}

/** A context whose tracked contracts are the fixed ones above, with the namespace's registrar and resolver. */
export function fakeContext(ws = new WorkingSet(), extra: TrackedRow[] = []): ProjectionContext {
  const tracked = new Map<string, TrackedRow>(
    [
      trackedRow(REGISTRY, "registry"),
      trackedRow(REGISTRAR, "registrar", NS_NODE),
      trackedRow(RESOLVER, "resolver", NS_NODE),
      trackedRow(PRIMARY, "primary"),
      trackedRow(ALLOCATOR, "allocator"),
      ...extra,
    ].map((t) => [t.contractId, t]),
  );
  return {
    ws,
    contract: (id) => ws.tracked.get(id) ?? tracked.get(id),
    reread: () => undefined,
    labelOf: (node) => ws.namespaces.get(node)?.label ?? null,
    discoveredLabel: () => undefined,
    streamFor: () => 0,
  };
}

/** Applies events in order from one contract, each in its own ledger from `ledger` on. */
export function applyAll(
  ctx: ProjectionContext,
  contractId: string,
  events: readonly ContractEvent[],
  ledger = 10,
): (string | null)[] {
  return events.map((e, i) => project(ctx, e, archiveRow(contractId, ledger + i)));
}
