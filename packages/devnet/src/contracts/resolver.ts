// Resolver: records of one namespace's names (docs/contracts.md "Resolver"). Every record is stored with the generation of the
// name it was written for, so a reissued name starts clean: a stale record reads as absent, never as current.

import type { Codec } from "@namereg/protocol";
import {
  address,
  canonicalChainAddress,
  CONTRACT_ERRORS as E,
  encodeEvent,
  hash32,
  isChainNetwork,
  Payment,
  RegistrarFns,
  RegistryFns,
  ResolverFns,
  string,
  symbol,
  tuple,
  u64,
  vec,
} from "@namereg/protocol";
import type { xdr } from "@stellar/stellar-sdk";
import { ContractError, type InvocationContext } from "../host/contract.ts";
import { callFn, defineContract, emitEvent, key, typed } from "./define.ts";

const K = {
  registry: key("Registry"),
  node: key("Node"),
  chainPolicy: key("ChainPol"),
  addr: (node: string) => key("Addr", hash32.encode(node)),
  text: (node: string, k: string) => key("Text", hash32.encode(node), symbol.encode(k)),
  payment: (node: string) => key("Pay", hash32.encode(node)),
  display: (addr: string) => key("Disp", address.encode(addr)),
  chain: (node: string, network: string) => key("Chain", hash32.encode(node), string.encode(network)),
};

const networks = vec(string);

interface Controller {
  holder: string;
  generation: bigint;
  active: boolean;
}

/** The namespace this resolver serves, read from the registry on every use: routing can change at any time. */
function namespaceRecord(ctx: InvocationContext) {
  const s = typed(ctx.storage);
  const registry = s.need(K.registry, address, E.NAMESPACE_NOT_FOUND);
  const ns = callFn(ctx, registry, RegistryFns.namespace, {
    node: s.need(K.node, hash32, E.NAMESPACE_NOT_FOUND),
  });
  if (ns === null) throw new ContractError(E.NAMESPACE_NOT_FOUND);
  return ns;
}

/** Who controls `node` now, asked of the namespace's current registrar. */
function controller(ctx: InvocationContext, node: string): Controller {
  const info = callFn(ctx, namespaceRecord(ctx).registrar, RegistrarFns.node_info, { node });
  if (info === null) throw new ContractError(E.NAME_NOT_FOUND);
  const [holder, generation, active] = info;
  return { holder, generation, active };
}

function asHolder(ctx: InvocationContext, node: string): Controller {
  const c = controller(ctx, node);
  if (!c.active) throw new ContractError(E.NAME_NOT_FOUND, "name is not live");
  ctx.requireAuth(c.holder);
  return c;
}

/** A record of `codec` tagged with the generation it belongs to. */
function versioned<T>(codec: Codec<T>) {
  const layout = tuple([u64, codec] as const);
  return {
    read(ctx: InvocationContext, k: xdr.ScVal, node: string): T | null {
      const stored = typed(ctx.storage).get(k, layout);
      if (stored === undefined) return null;
      const info = controllerOrNull(ctx, node);
      return info !== null && info.generation === stored[0] ? stored[1] : null;
    },
    write(ctx: InvocationContext, k: xdr.ScVal, generation: bigint, value: T | null): void {
      if (value === null) typed(ctx.storage).remove(k);
      else typed(ctx.storage).set(k, layout, [generation, value] as [bigint, T]);
    },
  };
}

function controllerOrNull(ctx: InvocationContext, node: string): Controller | null {
  try {
    return controller(ctx, node);
  } catch (err) {
    if (err instanceof ContractError) return null;
    throw err;
  }
}

const addrRecord = versioned(address);
const textRecord = versioned(string);
const paymentRecord = versioned(Payment);
const chainRecord = versioned(string);

function chainPolicy(ctx: InvocationContext): string[] {
  return typed(ctx.storage).get(K.chainPolicy, networks) ?? [];
}

function payTo(ctx: InvocationContext, node: string): string | null {
  return paymentRecord.read(ctx, K.payment(node), node)?.address ?? addrRecord.read(ctx, K.addr(node), node);
}

export const resolverContract = defineContract("resolver", ResolverFns, {
  __constructor(ctx, { registry, node }) {
    typed(ctx.storage).set(K.registry, address, registry);
    typed(ctx.storage).set(K.node, hash32, node);
    return null;
  },

  addr: (ctx, { node }) => addrRecord.read(ctx, K.addr(node), node),

  set_addr(ctx, { node, address: addr }) {
    const c = asHolder(ctx, node);
    const payment = paymentRecord.read(ctx, K.payment(node), node);
    if (payment !== null) {
      // docs/contracts.md "Rules the indexer relies on": with a payment configured, an address write updates the complete payment
      // (memo-free) and emits only pay_v1, never an addr_v1 companion.
      const updated = { address: addr, memo: null };
      paymentRecord.write(ctx, K.payment(node), c.generation, updated);
      emitEvent(ctx, encodeEvent({ type: "pay_v1", node, generation: c.generation, data: updated }));
      return null;
    }
    addrRecord.write(ctx, K.addr(node), c.generation, addr);
    emitEvent(ctx, encodeEvent({ type: "addr_v1", node, generation: c.generation, data: addr }));
    return null;
  },

  text: (ctx, { node, key: k }) => textRecord.read(ctx, K.text(node, k), node),

  set_text(ctx, { node, key: k, value }) {
    const c = asHolder(ctx, node);
    textRecord.write(ctx, K.text(node, k), c.generation, value);
    // The value never travels in the event (docs/contracts.md "Rules the indexer relies on"): readers re-read it.
    emitEvent(ctx, encodeEvent({ type: "text_v1", node, generation: c.generation, data: k }));
    return null;
  },

  payment: (ctx, { node }) => paymentRecord.read(ctx, K.payment(node), node),

  set_payment(ctx, { node, address: addr, memo }) {
    const c = asHolder(ctx, node);
    const payment = { address: addr, memo };
    paymentRecord.write(ctx, K.payment(node), c.generation, payment);
    emitEvent(ctx, encodeEvent({ type: "pay_v1", node, generation: c.generation, data: payment }));
    return null;
  },

  display_name: (ctx, { address: addr }) => typed(ctx.storage).get(K.display(addr), hash32) ?? null,

  set_display_name(ctx, { address: addr, node }) {
    ctx.requireAuth(addr);
    const c = controller(ctx, node);
    if (!c.active || payTo(ctx, node) !== addr)
      throw new ContractError(E.NOT_AUTHORISED, "not the pay-to address");
    typed(ctx.storage).set(K.display(addr), hash32, node);
    emitEvent(ctx, encodeEvent({ type: "disp_v1", node, data: { address: addr } }));
    return null;
  },

  chain_policy: (ctx) => chainPolicy(ctx),

  set_chain_policy(ctx, { networks: requested }) {
    ctx.requireAuth(namespaceRecord(ctx).owner);
    if (!requested.every(isChainNetwork))
      throw new ContractError(E.NETWORK_NOT_ENABLED, "unsupported network");
    const unique = [...new Set(requested)];
    typed(ctx.storage).set(K.chainPolicy, networks, unique);
    emitEvent(ctx, encodeEvent({ type: "chn_pol", data: { networks: unique } }));
    return null;
  },

  chain_address(ctx, { node, network }) {
    if (!chainPolicy(ctx).includes(network)) throw new ContractError(E.NETWORK_NOT_ENABLED);
    return chainRecord.read(ctx, K.chain(node, network), node);
  },

  set_chain_address(ctx, { node, network, address: value }) {
    if (!isChainNetwork(network)) throw new ContractError(E.NETWORK_NOT_ENABLED, "unsupported network");
    const c = asHolder(ctx, node);
    let stored: string | null = null;
    if (value !== null) {
      // Removal stays possible after the owner disables a network; writing needs it enabled.
      if (!chainPolicy(ctx).includes(network)) throw new ContractError(E.NETWORK_NOT_ENABLED);
      stored = canonicalChainAddress(network, value);
      if (stored === null) throw new ContractError(E.INVALID_CHAIN_ADDRESS);
    }
    chainRecord.write(ctx, K.chain(node, network), c.generation, stored);
    emitEvent(ctx, encodeEvent({ type: "chn_v1", node, generation: c.generation, data: { network } }));
    return null;
  },
});
