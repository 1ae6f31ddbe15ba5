// What every contract's projection sees: the page's working set and read-only lookups, plus the helpers they
// share. Projections are pure over this context (no I/O); an event that cannot be applied throws
// ProjectionError and is dead-lettered, the archive keeps it either way.
import type { EventContract, EventsOf, Namespace } from "@namereg/protocol";
import type { ArchiveRow } from "../decode.ts";
import type { Keys, NamespaceRow, TrackedRow, WorkingSet } from "../working-set.ts";

export class ProjectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProjectionError";
  }
}

/** The role of a tracked contract is the contract kind that emits the events it is trusted for. */
export type Role = EventContract;

export interface ProjectionContext {
  ws: WorkingSet;
  /** Contracts the indexer tracks, by id (the working set's new ones included). */
  contract(contractId: string): TrackedRow | undefined;
  /** Namespace metadata re-read from the registry for ns_v1/routing events (docs/contracts.md "Which contracts are followed"), by node. */
  reread(node: string): Namespace | null | undefined;
  /** Namespace label of a node, from the working set or the indexer's cache. */
  labelOf(node: string): string | null;
  /** The label verified discovery data gives a node (LEGACY_LABELS_FILE; docs/operations.md "The indexer"), if any. */
  discoveredLabel(node: string): string | undefined;
  streamFor(contractId: string): number;
}

/** One contract's projection: the rows its events need loaded, and how each event changes them. */
export interface Projection<C extends EventContract> {
  keys(event: EventsOf<C>, keys: Keys): void;
  /** Applies one event; returns the namespace label the event belongs to (for the archive row), if known. */
  apply(ctx: ProjectionContext, event: EventsOf<C>, row: ArchiveRow, emitter: TrackedRow): string | null;
}

export function track(
  ctx: ProjectionContext,
  contractId: string,
  role: Role,
  namespaceNode: string,
  ledger: number,
): void {
  const existing = ctx.contract(contractId);
  if (existing !== undefined && !existing.retired) return;
  ctx.ws.tracked.set(contractId, {
    contractId,
    role,
    namespaceNode,
    startLedger: existing?.startLedger ?? ledger,
    retired: false,
    streamId: existing?.streamId ?? ctx.streamFor(contractId),
    discoveredAt: existing?.discoveredAt ?? new Date(),
  });
}

export function retire(ctx: ProjectionContext, contractId: string | null, keep: string | null): void {
  if (contractId === null || contractId === keep) return;
  const existing = ctx.ws.tracked.get(contractId) ?? ctx.contract(contractId);
  if (existing !== undefined) ctx.ws.tracked.set(contractId, { ...existing, retired: true });
}

export function needNamespace(ctx: ProjectionContext, node: string): NamespaceRow {
  const ns = ctx.ws.namespaces.get(node);
  if (ns === null) throw new ProjectionError(`namespace ${node} is not in the mirror`);
  return ns;
}
