// Registry events: namespaces, their routing (registrar, resolver) and ownership transfers. A routing change
// starts tracking the new contract and retires the old one.
import { type EventsOf, namespaceNode } from "@namereg/protocol";
import type { ArchiveRow } from "../decode.ts";
import type { NamespaceRow } from "../working-set.ts";
import {
  needNamespace,
  type Projection,
  type ProjectionContext,
  ProjectionError,
  retire,
  track,
} from "./context.ts";

type RegistryEvent = EventsOf<"registry">;

export const registry: Projection<"registry"> = {
  keys(event, keys) {
    keys.namespaces.add(event.node);
  },
  apply: (ctx, event, row) => projectRegistry(ctx, event, row),
};

function projectRegistry(ctx: ProjectionContext, event: RegistryEvent, row: ArchiveRow): string | null {
  const { ws } = ctx;
  if (event.type === "ns_v1" || event.type === "ns") {
    const meta = ctx.reread(event.node);
    if (meta === undefined || meta === null) {
      throw new ProjectionError(`namespace metadata of ${event.node} could not be re-read`);
    }
    const label = event.type === "ns_v1" ? event.data.label : legacyLabel(ctx, event.node, meta.label);
    ws.namespaces.set(event.node, {
      node: event.node,
      label,
      owner: event.data.owner,
      registrar: meta.registrar,
      resolver: event.data.resolver ?? meta.resolver,
      locked: meta.locked,
      method: event.data.method,
      allocatedLedger: row.ledger,
      allocatedAt: row.at,
      txHash: row.txHash,
      subnamePolicy: "enabled",
      chainNetworks: [],
      transferTo: null,
      transferExpires: null,
      issuedNames: 0,
    });
    track(ctx, meta.registrar, "registrar", event.node, row.ledger);
    const resolver = event.data.resolver ?? meta.resolver;
    if (resolver !== null) track(ctx, resolver, "resolver", event.node, row.ledger);
    return label;
  }
  const ns = needNamespace(ctx, event.node);
  let next: NamespaceRow = ns;
  switch (event.type) {
    case "dep_reg":
    case "att_reg":
      if (event.data === null) throw new ProjectionError(`${event.type} without a registrar`);
      retire(ctx, ns.registrar, event.data);
      track(ctx, event.data, "registrar", ns.node, row.ledger);
      next = { ...ns, registrar: event.data };
      break;
    case "dep_res":
    case "set_res":
      retire(ctx, ns.resolver, event.data);
      if (event.data !== null) track(ctx, event.data, "resolver", ns.node, row.ledger);
      next = { ...ns, resolver: event.data };
      break;
    case "reg_upg":
    case "res_upg":
      break; // same contract id, new code: nothing in the mirror changes
    case "locked":
      next = { ...ns, locked: true };
      // Every name's `ownership` may turn permanent: cached resolve answers of the namespace must go.
      ws.changedNamespaces.add(ns.label);
      break;
    case "prop_tr":
      next = { ...ns, transferTo: event.data.to, transferExpires: event.data.expires };
      break;
    case "acc_tr":
      next = { ...ns, owner: event.data.to, transferTo: null, transferExpires: null };
      break;
    case "canc_tr":
      next = { ...ns, transferTo: null, transferExpires: null };
      break;
  }
  ws.namespaces.set(ns.node, next);
  return ns.label;
}

/** The start of the dead letter of a hash-only allocation: `namereg legacy-labels` and the indexer look for it. */
export const HASH_ONLY_ALLOCATION = "hash-only legacy allocation";

/**
 * A legacy `ns` event carries no label (docs/contracts.md "Rules the indexer relies on"). The registry's record may still hold it; otherwise only
 * verified discovery data names the namespace. Either source must hash to the event's node. Without one the
 * event is dead-lettered, and the indexer replays it once LEGACY_LABELS_FILE names the node.
 */
function legacyLabel(ctx: ProjectionContext, node: string, stored: string | null): string {
  if (stored !== null && namespaceNode(stored) === node) return stored;
  const discovered = ctx.discoveredLabel(node);
  if (discovered !== undefined && namespaceNode(discovered) === node) return discovered;
  throw new ProjectionError(
    `${HASH_ONLY_ALLOCATION} of namespace ${node}: the event and the registry's record carry no label; ` +
      "add the label to LEGACY_LABELS_FILE (verified by its hash) and restart the indexer",
  );
}
