// Registrar events: names (issue, renew, transfer, reclaim) with their history, transfer proposals, subnames
// and the namespace's subname policy. The namespace is the registrar's own (from its tracked row).
import { childNode, type EventOfType, type EventsOf } from "@namereg/protocol";
import type { ArchiveRow } from "../decode.ts";
import type { NameRow, NamespaceRow, TrackedRow } from "../working-set.ts";
import { needNamespace, type Projection, type ProjectionContext, ProjectionError } from "./context.ts";

type RegistrarEvent = EventsOf<"registrar">;

export const registrar: Projection<"registrar"> = {
  keys(event, keys) {
    switch (event.type) {
      case "name_v1":
      case "xfer_v1":
        keys.names.add(event.node);
        return;
      case "sub_v1":
        keys.subnames.add(event.node);
        keys.names.add(event.data.parent);
        return;
      case "sub_pol":
        return;
    }
  },
  apply: (ctx, event, row, emitter) => projectRegistrar(ctx, event, row, emitter),
};

function projectRegistrar(
  ctx: ProjectionContext,
  event: RegistrarEvent,
  row: ArchiveRow,
  emitter: TrackedRow,
): string {
  const { ws } = ctx;
  const nsNode = emitter.namespaceNode ?? "";
  const ns = needNamespace(ctx, nsNode);
  switch (event.type) {
    case "name_v1":
      applyNameChange(ctx, ns, event, row);
      break;
    case "xfer_v1": {
      const name = ws.names.get(event.node);
      if (name === null) throw new ProjectionError(`transfer proposal for unknown name ${event.data.label}`);
      const live = event.data.action === "propose";
      ws.names.set(event.node, {
        ...name,
        transferTo: live ? event.data.to : null,
        transferExpires: live ? event.data.proposalExpires : null,
        updatedLedger: row.ledger,
      });
      break;
    }
    case "sub_pol":
      ws.namespaces.set(ns.node, { ...ns, subnamePolicy: event.data.policy });
      break;
    case "sub_v1": {
      if (childNode(event.data.parent, event.data.child) !== event.node) {
        throw new ProjectionError(`sub_v1 node does not match ${event.data.child} under its parent`);
      }
      const parent = ws.names.get(event.data.parent);
      if (parent === null) throw new ProjectionError(`subname ${event.data.child} of an unknown parent`);
      ws.subnames.set(event.node, {
        node: event.node,
        parentNode: event.data.parent,
        namespace: ns.label,
        parentLabel: parent.label,
        child: event.data.child,
        generation: event.generation,
        exists: event.data.action === "create",
        address: event.data.address,
        ledger: row.ledger,
      });
      ws.changedNodes.add(event.node);
      break;
    }
  }
  return ns.label;
}

const HISTORY_ACTION = { issue: "issued", transfer: "transferred", reclaim: "reclaimed" } as const;

function applyNameChange(
  ctx: ProjectionContext,
  ns: NamespaceRow,
  event: EventOfType<"name_v1">,
  row: ArchiveRow,
): void {
  const { ws } = ctx;
  const { data } = event;
  if (childNode(ns.node, data.label) !== event.node) {
    throw new ProjectionError(`name_v1 node does not match ${data.label}.${ns.label}`);
  }
  const previous = ws.names.get(event.node);
  const expiresAt = data.expiresAt === 0n ? null : data.expiresAt;
  let next: NameRow;
  if (data.action === "issue") {
    next = {
      node: event.node,
      namespace: ns.label,
      label: data.label,
      holder: data.holder,
      address: data.address,
      expiresAt,
      generation: event.generation,
      active: true,
      issuedLedger: row.ledger,
      issuedAt: row.at,
      txHash: row.txHash,
      updatedLedger: row.ledger,
      transferTo: null,
      transferExpires: null,
    };
    if (previous === null || !previous.active) {
      ws.namespaces.set(ns.node, { ...ns, issuedNames: ns.issuedNames + 1 });
    }
  } else {
    if (previous === null)
      throw new ProjectionError(`${data.action} of ${data.label}, which was never issued`);
    next = { ...previous, holder: data.holder, address: data.address, expiresAt, updatedLedger: row.ledger };
    if (data.action === "reclaim") {
      next.active = false;
      if (previous.active)
        ws.namespaces.set(ns.node, { ...ns, issuedNames: Math.max(0, ns.issuedNames - 1) });
    }
    if (data.action === "transfer") {
      next.transferTo = null;
      next.transferExpires = null;
    }
  }
  ws.names.set(event.node, next);
  ws.changedNodes.add(event.node);
  const action = HISTORY_ACTION[data.action as keyof typeof HISTORY_ACTION];
  if (action !== undefined) {
    ws.history.push({
      node: event.node,
      eventId: row.id,
      generation: event.generation,
      action,
      holder: data.holder,
      ledger: row.ledger,
      txHash: row.txHash,
      at: row.at,
    });
  }
}
