// Projections: how each naming event changes the mirror. Pure over the page's working set (no I/O), applied
// in chain order. An event that cannot be applied (wrong emitting contract, inconsistent node, unknown
// namespace) throws ProjectionError and is dead-lettered; the archive keeps it either way.
import { type ContractEvent, childNode, type EventOfType, type Namespace } from "@namereg/protocol";
import type { ArchiveRow } from "./decode.ts";
import {
  claimKey,
  type Keys,
  type NameRow,
  type NamespaceRow,
  objectionKey,
  type ResolverRow,
  type TrackedRow,
  type WorkingSet,
} from "./working-set.ts";

export class ProjectionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProjectionError";
  }
}

export type Role = "registry" | "allocator" | "lookup" | "primary" | "registrar" | "resolver";

export interface ProjectionContext {
  ws: WorkingSet;
  /** Contracts the indexer tracks, by id (the working set's new ones included). */
  contract(contractId: string): TrackedRow | undefined;
  /** Namespace metadata re-read from the registry for ns_v1/routing events (spec §6.2), by node. */
  reread(node: string): Namespace | null | undefined;
  /** Namespace label of a node, from the working set or the indexer's cache. */
  labelOf(node: string): string | null;
  streamFor(contractId: string): number;
}

const ROLE_OF: Record<ContractEvent["type"], Role> = {
  ns_v1: "registry",
  dep_reg: "registry",
  att_reg: "registry",
  dep_res: "registry",
  set_res: "registry",
  reg_upg: "registry",
  res_upg: "registry",
  locked: "registry",
  prop_tr: "registry",
  acc_tr: "registry",
  canc_tr: "registry",
  name_v1: "registrar",
  xfer_v1: "registrar",
  sub_pol: "registrar",
  sub_v1: "registrar",
  addr_v1: "resolver",
  text_v1: "resolver",
  pay_v1: "resolver",
  disp_v1: "resolver",
  chn_pol: "resolver",
  chn_v1: "resolver",
  set_pri: "primary",
  clr_pri: "primary",
  upg_prop: "lookup",
  upg_exec: "lookup",
  upg_canc: "lookup",
  clm_ann: "allocator",
  clm_obj: "allocator",
  obj_end: "allocator",
  clm_resp: "allocator",
  clm_awd: "allocator",
  clm_wd: "allocator",
  clm_rej: "allocator",
  clm_exp: "allocator",
  fee_cfg: "allocator",
  fee_paid: "allocator",
  fee_done: "allocator",
  fee_cred: "allocator",
  fee_pull: "allocator",
  fee_sweep: "allocator",
};

/** Rows an event may read or write, so the page can load them up front. */
export function collectKeys(event: ContractEvent, emitter: TrackedRow | undefined, keys: Keys): void {
  if (emitter?.namespaceNode) keys.namespaces.add(emitter.namespaceNode);
  switch (event.type) {
    case "ns_v1":
    case "dep_reg":
    case "att_reg":
    case "dep_res":
    case "set_res":
    case "reg_upg":
    case "res_upg":
    case "locked":
    case "prop_tr":
    case "acc_tr":
    case "canc_tr":
      keys.namespaces.add(event.node);
      return;
    case "name_v1":
    case "xfer_v1":
      keys.names.add(event.node);
      return;
    case "sub_v1":
      keys.subnames.add(event.node);
      keys.names.add(event.data.parent);
      return;
    case "addr_v1":
    case "text_v1":
    case "pay_v1":
    case "disp_v1":
    case "chn_v1":
      keys.resolver.add(event.node);
      return;
    case "set_pri":
    case "clr_pri":
      keys.primary.add(event.address);
      return;
    case "clm_ann":
    case "clm_obj":
    case "obj_end":
    case "clm_resp":
    case "clm_awd":
    case "clm_wd":
    case "clm_rej":
    case "clm_exp":
      keys.claims.add(event.id);
      return;
    case "fee_paid":
    case "fee_done":
      keys.receipts.add(event.data.label);
      return;
    default:
      return;
  }
}

/** Applies one event; returns the namespace label the event belongs to (for the archive row), if known. */
export function project(ctx: ProjectionContext, event: ContractEvent, row: ArchiveRow): string | null {
  const emitter = ctx.contract(row.contractId);
  const expected = ROLE_OF[event.type];
  if (emitter === undefined || emitter.role !== expected) {
    throw new ProjectionError(`${event.type} from ${row.contractId}, which is not a tracked ${expected}`);
  }
  switch (expected) {
    case "registry":
      return projectRegistry(ctx, event as RegistryEvent, row);
    case "registrar":
      return projectRegistrar(ctx, event as RegistrarEvent, row, emitter);
    case "resolver":
      return projectResolver(ctx, event as ResolverEvent, row, emitter);
    case "primary":
      projectPrimary(ctx, event as EventOfType<"set_pri" | "clr_pri">, row);
      return null;
    case "allocator":
      return projectAllocator(ctx, event as AllocatorEvent, row);
    case "lookup":
      return null; // upgrade proposals and executions are archive-only facts
  }
}

type RegistryEvent = EventOfType<
  | "ns_v1"
  | "dep_reg"
  | "att_reg"
  | "dep_res"
  | "set_res"
  | "reg_upg"
  | "res_upg"
  | "locked"
  | "prop_tr"
  | "acc_tr"
  | "canc_tr"
>;
type RegistrarEvent = EventOfType<"name_v1" | "xfer_v1" | "sub_pol" | "sub_v1">;
type ResolverEvent = EventOfType<"addr_v1" | "text_v1" | "pay_v1" | "disp_v1" | "chn_pol" | "chn_v1">;
type AllocatorEvent = EventOfType<
  | "clm_ann"
  | "clm_obj"
  | "obj_end"
  | "clm_resp"
  | "clm_awd"
  | "clm_wd"
  | "clm_rej"
  | "clm_exp"
  | "fee_cfg"
  | "fee_paid"
  | "fee_done"
  | "fee_cred"
  | "fee_pull"
  | "fee_sweep"
>;

function track(
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

function retire(ctx: ProjectionContext, contractId: string | null, keep: string | null): void {
  if (contractId === null || contractId === keep) return;
  const existing = ctx.ws.tracked.get(contractId) ?? ctx.contract(contractId);
  if (existing !== undefined) ctx.ws.tracked.set(contractId, { ...existing, retired: true });
}

function needNamespace(ctx: ProjectionContext, node: string): NamespaceRow {
  const ns = ctx.ws.namespaces.get(node);
  if (ns === null) throw new ProjectionError(`namespace ${node} is not in the mirror`);
  return ns;
}

function projectRegistry(ctx: ProjectionContext, event: RegistryEvent, row: ArchiveRow): string | null {
  const { ws } = ctx;
  if (event.type === "ns_v1") {
    const meta = ctx.reread(event.node);
    if (meta === undefined || meta === null) {
      throw new ProjectionError(`namespace metadata of ${event.data.label} could not be re-read`);
    }
    ws.namespaces.set(event.node, {
      node: event.node,
      label: event.data.label,
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
    return event.data.label;
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

function resolverRow(ws: WorkingSet, node: string, generation: bigint, ledger: number): ResolverRow {
  const current = ws.resolver.get(node);
  // A newer generation is a new issuance: records of the previous holder no longer apply.
  if (current !== null && current.generation >= generation) return { ...current, updatedLedger: ledger };
  return {
    node,
    generation,
    address: null,
    paymentAddress: null,
    paymentMemo: null,
    textKeys: [],
    chainNetworks: [],
    displayFor: current?.displayFor ?? null,
    updatedLedger: ledger,
  };
}

function projectResolver(
  ctx: ProjectionContext,
  event: ResolverEvent,
  row: ArchiveRow,
  emitter: TrackedRow,
): string | null {
  const { ws } = ctx;
  const label = ctx.labelOf(emitter.namespaceNode ?? "");
  switch (event.type) {
    case "chn_pol": {
      const ns = needNamespace(ctx, emitter.namespaceNode ?? "");
      ws.namespaces.set(ns.node, { ...ns, chainNetworks: event.data.networks });
      return ns.label;
    }
    case "disp_v1": {
      const current = ws.resolver.get(event.node);
      ws.resolver.set(event.node, {
        ...(current ?? resolverRow(ws, event.node, 0n, row.ledger)),
        displayFor: event.data.address,
        updatedLedger: row.ledger,
      });
      return label;
    }
    case "addr_v1":
      ws.resolver.set(event.node, {
        ...resolverRow(ws, event.node, event.generation, row.ledger),
        address: event.data,
      });
      break;
    case "text_v1": {
      const r = resolverRow(ws, event.node, event.generation, row.ledger);
      ws.resolver.set(event.node, { ...r, textKeys: [...new Set([...r.textKeys, event.data])] });
      break;
    }
    case "pay_v1":
      ws.resolver.set(event.node, {
        ...resolverRow(ws, event.node, event.generation, row.ledger),
        paymentAddress: event.data.address,
        paymentMemo: event.data.memo,
      });
      break;
    case "chn_v1": {
      const r = resolverRow(ws, event.node, event.generation, row.ledger);
      ws.resolver.set(event.node, {
        ...r,
        chainNetworks: [...new Set([...r.chainNetworks, event.data.network])],
      });
      break;
    }
  }
  ws.changedNodes.add(event.node);
  return label;
}

function projectPrimary(
  ctx: ProjectionContext,
  event: EventOfType<"set_pri" | "clr_pri">,
  row: ArchiveRow,
): void {
  if (event.type === "set_pri") {
    ctx.ws.primary.set(event.address, {
      address: event.address,
      name: event.data.name,
      ledger: row.ledger,
      txHash: row.txHash,
    });
  } else {
    ctx.ws.primary.set(event.address, null);
  }
}

function projectAllocator(ctx: ProjectionContext, event: AllocatorEvent, row: ArchiveRow): string | null {
  const { ws } = ctx;
  const claimOf = (id: bigint) => {
    const c = ws.claims.get(claimKey(id));
    if (c === null) throw new ProjectionError(`${event.type} for unknown claim ${id}`);
    return c;
  };
  switch (event.type) {
    case "clm_ann": {
      const c = event.data;
      ws.claims.set(claimKey(event.id), {
        id: event.id,
        label: c.label,
        claimant: c.claimant,
        basis: c.basis,
        evidence: c.evidence,
        state: c.state,
        announcedLedger: Number(c.announcedLedger),
        deadline: c.deadline,
        response: c.response,
        awardedAt: c.awardedAt,
        updatedLedger: row.ledger,
      });
      return c.label;
    }
    case "clm_obj": {
      const c = claimOf(event.id);
      ws.objections.set(objectionKey(event.id, event.data.objector), {
        claimId: event.id,
        objector: event.data.objector,
        basis: event.data.basis,
        bond: event.data.bond,
        live: true,
        endReason: null,
      });
      ws.claims.set(claimKey(event.id), { ...c, state: "objected", updatedLedger: row.ledger });
      return c.label;
    }
    case "obj_end": {
      const c = claimOf(event.id);
      const key = objectionKey(event.id, event.data.objector);
      const o = ws.objections.get(key);
      if (o !== null) ws.objections.set(key, { ...o, live: false, endReason: event.data.reason });
      const state =
        c.state === "objected" && ws.liveObjections(event.id).length === 0 ? "announced" : c.state;
      ws.claims.set(claimKey(event.id), { ...c, state, updatedLedger: row.ledger });
      return c.label;
    }
    case "clm_resp": {
      const c = claimOf(event.id);
      ws.claims.set(claimKey(event.id), { ...c, response: event.data.response, updatedLedger: row.ledger });
      return c.label;
    }
    case "clm_awd":
    case "clm_wd":
    case "clm_rej":
    case "clm_exp": {
      const c = claimOf(event.id);
      const state = { clm_awd: "awarded", clm_wd: "withdrawn", clm_rej: "rejected", clm_exp: "expired" }[
        event.type
      ];
      const awardedAt =
        event.type === "clm_awd" && row.at !== null
          ? BigInt(Math.floor(row.at.getTime() / 1000))
          : c.awardedAt;
      ws.claims.set(claimKey(event.id), { ...c, state, awardedAt, updatedLedger: row.ledger });
      return c.label;
    }
    case "fee_paid":
      ws.receipts.set(event.data.label, {
        label: event.data.label,
        key: event.key,
        claimant: event.data.claimant,
        token: event.data.token,
        recipient: null,
        amount: event.data.amount,
        outcome: "Held",
        refundAmount: 0n,
        treasuryAmount: 0n,
        ledger: row.ledger,
      });
      return event.data.label;
    case "fee_done": {
      const r = event.data.receipt;
      ws.receipts.set(event.data.label, {
        label: event.data.label,
        key: event.key,
        claimant: r.claimant,
        token: event.data.token,
        recipient: event.data.recipient,
        amount: r.amount,
        outcome: r.outcome,
        refundAmount: r.refundAmount,
        treasuryAmount: r.treasuryAmount,
        ledger: row.ledger,
      });
      return event.data.label;
    }
    default:
      return null; // fee policy, credits and sweeps are archive facts; live routes read the contract
  }
}
