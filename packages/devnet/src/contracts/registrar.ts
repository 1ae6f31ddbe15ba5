// Registrar: the names and subnames of one namespace (docs/contracts.md "Registrar", subname rules included).
import {
  address,
  Child,
  childNode,
  CONTRACT_ERRORS as E,
  encodeEvent,
  hash32,
  label as labelCodec,
  Name,
  NamespaceTransfer,
  RegistrarFns,
  RegistryFns,
  SUBNAME_POLICIES,
  type SubnamePolicyValue,
  symbolEnum,
  tuple,
  vec,
} from "@namereg/protocol";
import { ContractError, type InvocationContext } from "../host/contract.ts";
import { callFn, defineContract, emitEvent, key, typed } from "./define.ts";

const policyCodec = symbolEnum(SUBNAME_POLICIES);
const childList = vec(labelCodec);
const childKey = tuple([labelCodec, labelCodec] as const);

const K = {
  registry: key("Registry"),
  node: key("Node"),
  policy: key("Policy"),
  name: (label: string) => key("Name", labelCodec.encode(label)),
  labelOf: (node: string) => key("Label", hash32.encode(node)),
  proposal: (label: string) => key("Xfer", labelCodec.encode(label)),
  child: (label: string, child: string) => key("Child", labelCodec.encode(label), labelCodec.encode(child)),
  children: (label: string) => key("Children", labelCodec.encode(label)),
  childOf: (node: string) => key("ChildNode", hash32.encode(node)),
};

function namespaceNode(ctx: InvocationContext): string {
  return typed(ctx.storage).need(K.node, hash32, E.NAMESPACE_NOT_FOUND);
}

function nameNodeOf(ctx: InvocationContext, label: string): string {
  return childNode(namespaceNode(ctx), label);
}

/** The namespace, read from the registry on every use: ownership (and the lock) can change there at any time. */
function namespaceRecord(ctx: InvocationContext) {
  const registry = typed(ctx.storage).need(K.registry, address, E.NAMESPACE_NOT_FOUND);
  const ns = callFn(ctx, registry, RegistryFns.namespace, { node: namespaceNode(ctx) });
  if (ns === null) throw new ContractError(E.NAMESPACE_NOT_FOUND);
  return ns;
}

function owner(ctx: InvocationContext): string {
  return namespaceRecord(ctx).owner;
}

/** A name resolves while it is active and not past a set expiry (0 = no expiry). */
export function isLive(name: Name, now: bigint): boolean {
  return name.active && (name.expiresAt === 0n || name.expiresAt > now);
}

function loadName(ctx: InvocationContext, label: string): Name {
  return typed(ctx.storage).need(K.name(label), Name, E.NAME_NOT_FOUND);
}

function liveName(ctx: InvocationContext, label: string): Name {
  const name = loadName(ctx, label);
  if (!isLive(name, ctx.timestamp)) throw new ContractError(E.NAME_NOT_FOUND, "name is not live");
  return name;
}

function policy(ctx: InvocationContext): SubnamePolicyValue {
  return typed(ctx.storage).get(K.policy, policyCodec) ?? "enabled";
}

function saveName(ctx: InvocationContext, label: string, name: Name): void {
  typed(ctx.storage).set(K.name(label), Name, name);
}

function nameChanged(
  ctx: InvocationContext,
  label: string,
  name: Name,
  action: "issue" | "reclaim" | "transfer" | "renew" | "address",
): void {
  emitEvent(
    ctx,
    encodeEvent({
      type: "name_v1",
      node: nameNodeOf(ctx, label),
      generation: name.generation,
      data: { label, action, holder: name.holder, address: name.address, expiresAt: name.expiresAt },
    }),
  );
}

function transferChanged(
  ctx: InvocationContext,
  label: string,
  name: Name,
  proposal: NamespaceTransfer | null,
): void {
  emitEvent(
    ctx,
    encodeEvent({
      type: "xfer_v1",
      node: nameNodeOf(ctx, label),
      generation: name.generation,
      data: {
        label,
        action: proposal === null ? "cancel" : "propose",
        holder: name.holder,
        to: proposal?.to ?? null,
        proposalExpires: proposal?.expires ?? null,
        expiresAt: name.expiresAt,
      },
    }),
  );
}

/** The parent must be live and held by the signer, at the generation the caller reviewed. */
function asParentHolder(ctx: InvocationContext, label: string, parentGeneration: bigint): Name {
  const parent = loadName(ctx, label);
  ctx.requireAuth(parent.holder);
  if (!isLive(parent, ctx.timestamp)) throw new ContractError(E.PARENT_INACTIVE);
  if (parent.generation !== parentGeneration) throw new ContractError(E.GENERATION_MISMATCH);
  return parent;
}

function subnameChanged(
  ctx: InvocationContext,
  label: string,
  child: string,
  record: Child,
  action: "create" | "remove",
): void {
  const parent = nameNodeOf(ctx, label);
  emitEvent(
    ctx,
    encodeEvent({
      type: "sub_v1",
      node: childNode(parent, child),
      generation: record.generation,
      data: { parent, child, action, address: record.address },
    }),
  );
}

const registrarHandlers: Parameters<typeof defineContract<typeof RegistrarFns>>[2] = {
  __constructor(ctx, { registry, node }) {
    const s = typed(ctx.storage);
    s.set(K.registry, address, registry);
    s.set(K.node, hash32, node);
    s.set(K.policy, policyCodec, "enabled");
    return null;
  },

  name: (ctx, { label }) => typed(ctx.storage).get(K.name(label), Name) ?? null,

  issue(ctx, { label, holder, address: addr, expiresAt }) {
    ctx.requireAuth(owner(ctx));
    const previous = typed(ctx.storage).get(K.name(label), Name);
    if (previous !== undefined && isLive(previous, ctx.timestamp)) throw new ContractError(E.NAME_TAKEN);
    const name: Name = {
      holder,
      address: addr,
      expiresAt,
      generation: (previous?.generation ?? 0n) + 1n,
      issuedLedger: BigInt(ctx.ledgerSequence),
      active: true,
    };
    saveName(ctx, label, name);
    typed(ctx.storage).set(K.labelOf(nameNodeOf(ctx, label)), labelCodec, label);
    typed(ctx.storage).remove(K.proposal(label));
    nameChanged(ctx, label, name, "issue");
    return null;
  },

  reclaim(ctx, { label }) {
    const ns = namespaceRecord(ctx);
    ctx.requireAuth(ns.owner);
    const name = loadName(ctx, label);
    if (!name.active) throw new ContractError(E.NAME_NOT_FOUND, "already reclaimed");
    // The lock rule: in a locked namespace nobody takes back a name that is still live.
    if (ns.locked && isLive(name, ctx.timestamp)) {
      throw new ContractError(E.LOCKED, "the namespace is locked: live names cannot be reclaimed");
    }
    const reclaimed = { ...name, active: false };
    saveName(ctx, label, reclaimed);
    typed(ctx.storage).remove(K.proposal(label));
    nameChanged(ctx, label, reclaimed, "reclaim");
    return null;
  },

  transfer(ctx, { label, to }) {
    const name = liveName(ctx, label);
    ctx.requireAuth(name.holder);
    const moved = { ...name, holder: to };
    saveName(ctx, label, moved);
    typed(ctx.storage).remove(K.proposal(label));
    nameChanged(ctx, label, moved, "transfer");
    return null;
  },

  propose(ctx, { label, to, expires }) {
    const name = liveName(ctx, label);
    ctx.requireAuth(name.holder);
    if (expires <= ctx.timestamp) throw new ContractError(E.CLAIM_STATE, "proposal already expired");
    const proposal = { to, expires };
    typed(ctx.storage).set(K.proposal(label), NamespaceTransfer, proposal);
    transferChanged(ctx, label, name, proposal);
    return null;
  },

  cancel(ctx, { label }) {
    const name = loadName(ctx, label);
    ctx.requireAuth(name.holder);
    // Idempotent (docs/contracts.md "Registrar"): cancelling with no live proposal still records the holder's intent.
    typed(ctx.storage).remove(K.proposal(label));
    transferChanged(ctx, label, name, null);
    return null;
  },

  accept(ctx, { label }) {
    const name = liveName(ctx, label);
    const proposal = typed(ctx.storage).get(K.proposal(label), NamespaceTransfer);
    if (proposal === undefined || proposal.expires <= ctx.timestamp) {
      throw new ContractError(E.CLAIM_STATE, "no live transfer proposal");
    }
    ctx.requireAuth(proposal.to);
    const moved = { ...name, holder: proposal.to };
    saveName(ctx, label, moved);
    typed(ctx.storage).remove(K.proposal(label));
    nameChanged(ctx, label, moved, "transfer");
    return null;
  },

  renew(ctx, { label, expiresAt }) {
    const ns = namespaceRecord(ctx);
    ctx.requireAuth(ns.owner);
    const name = loadName(ctx, label);
    if (!name.active) throw new ContractError(E.NAME_NOT_FOUND, "reclaimed names are reissued, not renewed");
    // The lock rule: a name without expiry in a locked namespace keeps none (an expiry would be a reclaim later).
    if (ns.locked && name.expiresAt === 0n && expiresAt !== 0n) {
      throw new ContractError(E.LOCKED, "the namespace is locked: a name without expiry cannot be given one");
    }
    const renewed = { ...name, expiresAt };
    saveName(ctx, label, renewed);
    nameChanged(ctx, label, renewed, "renew");
    return null;
  },

  set_address(ctx, { label, address: addr }) {
    const name = liveName(ctx, label);
    ctx.requireAuth(name.holder);
    const changed = { ...name, address: addr };
    saveName(ctx, label, changed);
    nameChanged(ctx, label, changed, "address");
    return null;
  },

  subname_policy: (ctx) => ({ policy: policy(ctx), owner: owner(ctx) }),

  set_subname_policy(ctx, { policy: next }) {
    ctx.requireAuth(owner(ctx));
    typed(ctx.storage).set(K.policy, policyCodec, next);
    emitEvent(ctx, encodeEvent({ type: "sub_pol", data: { policy: next } }));
    return null;
  },

  subname: (ctx, { label, child }) => typed(ctx.storage).get(K.child(label, child), Child) ?? null,

  subnames(ctx, { label, offset, limit }) {
    const s = typed(ctx.storage);
    const all = s.get(K.children(label), childList) ?? [];
    return all.slice(offset, offset + limit).map((child) => {
      const record = s.get(K.child(label, child), Child);
      if (record === undefined) throw new Error(`child list names a missing record ${child}`);
      return [child, record] as [string, Child];
    });
  },

  create_subname(ctx, { label, child, parentGeneration, generation, address: addr }) {
    const current = policy(ctx);
    if (current === "creation_disabled") throw new ContractError(E.SUBNAME_CREATION_DISABLED);
    if (current === "suspended") throw new ContractError(E.SUBNAMES_SUSPENDED);
    asParentHolder(ctx, label, parentGeneration);
    const s = typed(ctx.storage);
    const existing = s.get(K.child(label, child), Child);
    let next: bigint;
    if (existing === undefined) {
      if (generation !== null) throw new ContractError(E.GENERATION_MISMATCH);
      next = 1n;
      s.set(K.children(label), childList, [...(s.get(K.children(label), childList) ?? []), child]);
      s.set(K.childOf(childNode(nameNodeOf(ctx, label), child)), childKey, [label, child]);
    } else {
      if (generation !== existing.generation) throw new ContractError(E.GENERATION_MISMATCH);
      // A live child whose binding still holds is taken; a stale one (parent reissued) may be recreated.
      if (existing.exists && existing.parentGeneration === parentGeneration)
        throw new ContractError(E.NAME_TAKEN);
      next = existing.generation + 1n;
    }
    const record: Child = { exists: true, parentGeneration, generation: next, address: addr };
    s.set(K.child(label, child), Child, record);
    subnameChanged(ctx, label, child, record, "create");
    return null;
  },

  remove_subname(ctx, { label, child, parentGeneration, generation }) {
    asParentHolder(ctx, label, parentGeneration);
    const s = typed(ctx.storage);
    const existing = s.need(K.child(label, child), Child, E.NAME_NOT_FOUND);
    if (!existing.exists || existing.generation !== generation)
      throw new ContractError(E.GENERATION_MISMATCH);
    const removed = { ...existing, exists: false };
    s.set(K.child(label, child), Child, removed);
    subnameChanged(ctx, label, child, removed, "remove");
    return null;
  },

  node_info(ctx, { node }) {
    const s = typed(ctx.storage);
    const label = s.get(K.labelOf(node), labelCodec);
    if (label !== undefined) {
      const name = loadName(ctx, label);
      return [name.holder, name.generation, isLive(name, ctx.timestamp)];
    }
    const pair = s.get(K.childOf(node), childKey);
    if (pair === undefined) return null;
    const [parentLabel, child] = pair;
    const parent = loadName(ctx, parentLabel);
    const record = s.need(K.child(parentLabel, child), Child, E.NAME_NOT_FOUND);
    const active =
      record.exists &&
      isLive(parent, ctx.timestamp) &&
      record.parentGeneration === parent.generation &&
      policy(ctx) !== "suspended";
    return [parent.holder, record.generation, active];
  },
};

export const registrarContract = defineContract("registrar", RegistrarFns, registrarHandlers);

/**
 * A registrar built without the subname interface (docs/contracts.md "Errors": a registrar "without subname support"): names
 * work as in the full registrar; every subname function answers error #9, which the server reports as 409
 * subnames_unsupported. Deployed by tests and scenarios that need such a namespace (`attach_registrar`).
 */
const noSubnames = (): never => {
  throw new ContractError(E.NETWORK_NOT_ENABLED, "this registrar has no subname support");
};
export const basicRegistrarContract = defineContract("registrar_basic", RegistrarFns, {
  ...registrarHandlers,
  subname_policy: noSubnames,
  set_subname_policy: noSubnames,
  subname: noSubnames,
  subnames: noSubnames,
  create_subname: noSubnames,
  remove_subname: noSubnames,
});
