// Registrar: the names and subnames of one namespace (docs/contracts.md "Registrar", subname rules included).
// Storage, registry reads and events live in registrar/state.ts; this module holds the handlers.
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
} from "@namereg/protocol";
import { ContractError } from "../host/contract.ts";
import { defineContract, emitEvent, typed } from "./define.ts";
import {
  asParentHolder,
  childKey,
  childList,
  isLive,
  K,
  liveName,
  loadName,
  nameChanged,
  nameNodeOf,
  namespaceRecord,
  owner,
  policy,
  policyCodec,
  saveName,
  subnameChanged,
  transferChanged,
} from "./registrar/state.ts";

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

export { isLive } from "./registrar/state.ts";

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
