// Lookup: the canonical current resolution that payment consumers read, and its upgrade timelock.
import {
  address,
  CONTRACT_ERRORS as E,
  encodeEvent,
  hash32,
  LookupFns,
  namespaceNode,
  nodeOf,
  parseName,
  RegistrarFns,
  RegistryFns,
  type Resolution,
  ResolverFns,
  tuple,
  u64,
} from "@namereg/protocol";
import { ContractError, type InvocationContext } from "../host/contract.ts";
import { callFn, defineContract, emitEvent, key, typed } from "./define.ts";
import { isLive } from "./registrar.ts";

const K = { admin: key("Admin"), registry: key("Registry"), upgrade: key("Upgrade") };
const pendingUpgrade = tuple([hash32, u64] as const);

function resolve(ctx: InvocationContext, full: string): Resolution | null {
  const parsed = parseName(full);
  if (parsed === null || parsed.kind === "namespace") return null;
  const registry = typed(ctx.storage).need(K.registry, address, E.NAMESPACE_NOT_FOUND);
  const ns = callFn(ctx, registry, RegistryFns.namespace, { node: namespaceNode(parsed.namespace) });
  if (ns === null) return null;
  const name = callFn(ctx, ns.registrar, RegistrarFns.name, { label: parsed.label });
  if (name === null || !isLive(name, ctx.timestamp)) return null;
  const node = nodeOf(parsed);
  if (parsed.kind === "subname") {
    const child = callFn(ctx, ns.registrar, RegistrarFns.subname, {
      label: parsed.label,
      child: parsed.child,
    });
    if (child === null || !child.exists || child.parentGeneration !== name.generation) return null;
    const policy = callFn(ctx, ns.registrar, RegistrarFns.subname_policy, {});
    if (policy.policy === "suspended") return null;
    return { holder: name.holder, address: child.address, memo: null, expiresAt: name.expiresAt, node };
  }
  // The resolver's payment instruction wins over the registrar's built-in address (docs/contracts.md "Lookup").
  const payment = ns.resolver === null ? null : callFn(ctx, ns.resolver, ResolverFns.payment, { node });
  return {
    holder: name.holder,
    address: payment?.address ?? name.address,
    memo: payment?.memo ?? null,
    expiresAt: name.expiresAt,
    node,
  };
}

function asAdmin(ctx: InvocationContext): void {
  ctx.requireAuth(typed(ctx.storage).need(K.admin, address, E.NOT_AUTHORISED));
}

function pending(ctx: InvocationContext): readonly [string, bigint] {
  const p = typed(ctx.storage).get(K.upgrade, pendingUpgrade);
  if (p === undefined) throw new ContractError(E.CLAIM_STATE, "no pending upgrade");
  return p;
}

export const lookupContract = defineContract("lookup", LookupFns, {
  __constructor(ctx, { admin, registry }) {
    typed(ctx.storage).set(K.admin, address, admin);
    typed(ctx.storage).set(K.registry, address, registry);
    return null;
  },

  lookup: (ctx, { name }) => resolve(ctx, name),

  propose_upgrade(ctx, { wasmHash, executeAfter }) {
    asAdmin(ctx);
    typed(ctx.storage).set(K.upgrade, pendingUpgrade, [wasmHash, executeAfter]);
    emitEvent(ctx, encodeEvent({ type: "upg_prop", data: [wasmHash, executeAfter] }));
    return null;
  },

  execute_upgrade(ctx) {
    asAdmin(ctx);
    const [wasmHash, executeAfter] = pending(ctx);
    if (ctx.timestamp < executeAfter) throw new ContractError(E.WINDOW_NOT_ELAPSED);
    ctx.setExecutable(ctx.contractId, Buffer.from(wasmHash, "hex"));
    typed(ctx.storage).remove(K.upgrade);
    emitEvent(ctx, encodeEvent({ type: "upg_exec", data: wasmHash }));
    return null;
  },

  cancel_upgrade(ctx) {
    asAdmin(ctx);
    const [wasmHash] = pending(ctx);
    typed(ctx.storage).remove(K.upgrade);
    emitEvent(ctx, encodeEvent({ type: "upg_canc", data: wasmHash }));
    return null;
  },
});
