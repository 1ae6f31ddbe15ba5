// Registry: namespaces, their owners and their routing to a registrar and a resolver (docs/contracts.md "Registry").
import {
  address,
  CONTRACT_ERRORS as E,
  encodeEvent,
  fromHex,
  hash32,
  Namespace,
  NamespaceTransfer,
  namespaceNode,
  RegistryFns,
  u32,
} from "@namereg/protocol";
import { sha256 } from "@noble/hashes/sha2.js";
import { xdr } from "@stellar/stellar-sdk";
import { ContractError, type InvocationContext } from "../host/contract.ts";
import { defineContract, emitEvent, key, typed } from "./define.ts";

const K = {
  admin: key("Admin"),
  allocator: key("Allocator"),
  deploys: key("Deploys"),
  ns: (node: string) => key("Ns", hash32.encode(node)),
  transfer: (node: string) => key("Xfer", hash32.encode(node)),
  legacy: key("LegacyNs"),
};

/**
 * While this storage flag is set, `allocate` behaves as an older registry (docs/contracts.md "Rules the indexer relies on"): with
 * `true`, one from before the versioned events (the legacy `ns(node)` layout without the label, a record without
 * it); with the symbol `both`, a transitional one that emits `ns(node)` immediately followed by its `ns_v1`
 * companion, its record still without the label. No contract function sets it; the devnet's legacy scenario writes it around an
 * allocation to lay down such history (scenarios/legacy-namespace.ts).
 */
export const LEGACY_ALLOCATION_FLAG = K.legacy;
/** The flag's value for a transitional registry (both layouts). */
export const TRANSITIONAL = xdr.ScVal.scvSymbol("both");

type RoutingEvent = "dep_reg" | "att_reg" | "dep_res" | "set_res" | "reg_upg" | "res_upg" | "locked";

function load(ctx: InvocationContext, node: string): Namespace {
  return typed(ctx.storage).need(K.ns(node), Namespace, E.NAMESPACE_NOT_FOUND);
}

/** Loads a namespace and requires its owner's authorisation. */
function asOwner(ctx: InvocationContext, node: string): Namespace {
  const ns = load(ctx, node);
  ctx.requireAuth(ns.owner);
  return ns;
}

/** Routing changes are refused once the owner has locked the namespace. */
function asUnlockedOwner(ctx: InvocationContext, node: string): Namespace {
  const ns = asOwner(ctx, node);
  if (ns.locked) throw new ContractError(E.LOCKED);
  return ns;
}

function save(ctx: InvocationContext, node: string, ns: Namespace): void {
  typed(ctx.storage).set(K.ns(node), Namespace, ns);
}

function routed(ctx: InvocationContext, type: RoutingEvent, node: string, data: string | null): void {
  emitEvent(ctx, encodeEvent({ type, node, data }));
}

/** A fresh deployment salt per deployment: the node alone would collide on a second registrar. */
function deploySalt(ctx: InvocationContext, node: string, what: string): Uint8Array {
  const n = typed(ctx.storage).next(K.deploys);
  return sha256(Buffer.concat([fromHex(node), Buffer.from(`${what}:${n}`)]));
}

function liveTransfer(ctx: InvocationContext, node: string): NamespaceTransfer | null {
  const t = typed(ctx.storage).get(K.transfer(node), NamespaceTransfer);
  return t !== undefined && t.expires > ctx.timestamp ? t : null;
}

export const registryContract = defineContract("registry", RegistryFns, {
  __constructor(ctx, { admin, allocator }) {
    const s = typed(ctx.storage);
    s.set(K.admin, address, admin);
    s.set(K.allocator, address, allocator);
    s.set(K.deploys, u32, 0);
    return null;
  },

  namespace: (ctx, { node }) => typed(ctx.storage).get(K.ns(node), Namespace) ?? null,

  allocate(ctx, { label, owner, method }) {
    // Both paths come through the allocator: `allocate` on an award, `reserved` on the admin's reserve().
    ctx.requireAuth(typed(ctx.storage).need(K.allocator, address, E.NOT_AUTHORISED));
    const node = namespaceNode(label);
    if (ctx.storage.has(K.ns(node))) throw new ContractError(E.NAME_TAKEN);
    const registrar = ctx.deploy("registrar", deploySalt(ctx, node, "registrar"), [
      address.encode(ctx.contractId),
      hash32.encode(node),
    ]);
    const flag = ctx.storage.get(K.legacy);
    const both = flag !== undefined && flag.toXDR("base64") === TRANSITIONAL.toXDR("base64");
    const legacy = flag !== undefined && !both;
    save(ctx, node, {
      label: flag === undefined ? label : null,
      owner,
      registrar,
      resolver: null,
      locked: false,
      allocatedLedger: BigInt(ctx.ledgerSequence),
      method,
    });
    if (both) emitEvent(ctx, encodeEvent({ type: "ns", node, data: { owner, resolver: null, method } }));
    emitEvent(
      ctx,
      legacy
        ? encodeEvent({ type: "ns", node, data: { owner, resolver: null, method } })
        : encodeEvent({ type: "ns_v1", node, data: { label, owner, resolver: null, method } }),
    );
    return null;
  },

  deploy_registrar(ctx, { node }) {
    const ns = asUnlockedOwner(ctx, node);
    const registrar = ctx.deploy("registrar", deploySalt(ctx, node, "registrar"), [
      address.encode(ctx.contractId),
      hash32.encode(node),
    ]);
    save(ctx, node, { ...ns, registrar });
    routed(ctx, "dep_reg", node, registrar);
    return registrar;
  },

  attach_registrar(ctx, { node, registrar }) {
    const ns = asUnlockedOwner(ctx, node);
    if (ctx.kindOf(registrar) === undefined) throw new ContractError(E.NAME_NOT_FOUND, "no such registrar");
    save(ctx, node, { ...ns, registrar });
    routed(ctx, "att_reg", node, registrar);
    return null;
  },

  deploy_resolver(ctx, { node }) {
    const ns = asUnlockedOwner(ctx, node);
    const resolver = ctx.deploy("resolver", deploySalt(ctx, node, "resolver"), [
      address.encode(ctx.contractId),
      hash32.encode(node),
    ]);
    save(ctx, node, { ...ns, resolver });
    routed(ctx, "dep_res", node, resolver);
    return resolver;
  },

  set_resolver(ctx, { node, resolver }) {
    const ns = asUnlockedOwner(ctx, node);
    if (resolver !== null && ctx.kindOf(resolver) === undefined) {
      throw new ContractError(E.NAME_NOT_FOUND, "no such resolver");
    }
    save(ctx, node, { ...ns, resolver });
    routed(ctx, "set_res", node, resolver);
    return null;
  },

  upgrade_registrar(ctx, { node, wasm }) {
    const ns = asUnlockedOwner(ctx, node);
    ctx.setExecutable(ns.registrar, sha256(wasm));
    routed(ctx, "reg_upg", node, ns.registrar);
    return null;
  },

  upgrade_resolver(ctx, { node, wasm }) {
    const ns = asUnlockedOwner(ctx, node);
    if (ns.resolver === null) throw new ContractError(E.NAME_NOT_FOUND, "namespace has no resolver");
    ctx.setExecutable(ns.resolver, sha256(wasm));
    routed(ctx, "res_upg", node, ns.resolver);
    return null;
  },

  lock(ctx, { node }) {
    const ns = asUnlockedOwner(ctx, node);
    save(ctx, node, { ...ns, locked: true });
    routed(ctx, "locked", node, null);
    return null;
  },

  propose_transfer(ctx, { node, to, expires }) {
    asOwner(ctx, node);
    if (expires <= ctx.timestamp) throw new ContractError(E.CLAIM_STATE, "proposal already expired");
    typed(ctx.storage).set(K.transfer(node), NamespaceTransfer, { to, expires });
    emitEvent(ctx, encodeEvent({ type: "prop_tr", node, data: { to, expires } }));
    return null;
  },

  accept_transfer(ctx, { node }) {
    const ns = load(ctx, node);
    const proposal = liveTransfer(ctx, node);
    if (proposal === null) throw new ContractError(E.CLAIM_STATE, "no live transfer proposal");
    ctx.requireAuth(proposal.to);
    save(ctx, node, { ...ns, owner: proposal.to });
    typed(ctx.storage).remove(K.transfer(node));
    emitEvent(ctx, encodeEvent({ type: "acc_tr", node, data: { from: ns.owner, to: proposal.to } }));
    return null;
  },

  cancel_transfer(ctx, { node }) {
    asOwner(ctx, node);
    if (!ctx.storage.has(K.transfer(node))) throw new ContractError(E.CLAIM_STATE, "no transfer proposal");
    typed(ctx.storage).remove(K.transfer(node));
    emitEvent(ctx, encodeEvent({ type: "canc_tr", node, data: null }));
    return null;
  },

  transfer_proposal: (ctx, { node }) => liveTransfer(ctx, node),
});
