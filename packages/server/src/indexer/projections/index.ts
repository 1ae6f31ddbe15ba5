// Dispatches each naming event to the projection of the contract that emits it (protocol's event definitions
// record that owner once). The emitting contract must be tracked in that role, or the event is dead-lettered.
import { CONTRACT_OF_EVENT, type ContractEvent, type EventContract } from "@namereg/protocol";
import type { ArchiveRow } from "../decode.ts";
import type { Keys, TrackedRow } from "../working-set.ts";
import { allocator } from "./allocator.ts";
import { type Projection, type ProjectionContext, ProjectionError } from "./context.ts";
import { primary } from "./primary.ts";
import { registrar } from "./registrar.ts";
import { registry } from "./registry.ts";
import { resolver } from "./resolver.ts";

export { type ProjectionContext, ProjectionError, type Role } from "./context.ts";

/** Upgrade proposals and executions of the lookup contract are archive-only facts. */
const lookup: Projection<"lookup"> = { keys() {}, apply: () => null };

const PROJECTIONS: { readonly [C in EventContract]: Projection<C> } = {
  registry,
  registrar,
  resolver,
  primary,
  allocator,
  lookup,
};

function projectionOf(event: ContractEvent): Projection<EventContract> {
  return PROJECTIONS[CONTRACT_OF_EVENT[event.type]] as unknown as Projection<EventContract>;
}

/** Rows an event may read or write, so the page can load them up front. */
export function collectKeys(event: ContractEvent, emitter: TrackedRow | undefined, keys: Keys): void {
  if (emitter?.namespaceNode) keys.namespaces.add(emitter.namespaceNode);
  projectionOf(event).keys(event, keys);
}

/** Applies one event; returns the namespace label the event belongs to (for the archive row), if known. */
export function project(ctx: ProjectionContext, event: ContractEvent, row: ArchiveRow): string | null {
  const emitter = ctx.contract(row.contractId);
  const expected = CONTRACT_OF_EVENT[event.type];
  if (emitter === undefined || emitter.role !== expected) {
    throw new ProjectionError(`${event.type} from ${row.contractId}, which is not a tracked ${expected}`);
  }
  return projectionOf(event).apply(ctx, event, row, emitter);
}
