// A registrar's storage, the namespace it reads from the registry, name liveness, and the events it emits.
import {
  address,
  type Child,
  childNode,
  CONTRACT_ERRORS as E,
  encodeEvent,
  hash32,
  label as labelCodec,
  Name,
  type NamespaceTransfer,
  RegistryFns,
  SUBNAME_POLICIES,
  type SubnamePolicyValue,
  symbolEnum,
  tuple,
  vec,
} from "@namereg/protocol";
import { ContractError, type InvocationContext } from "../../host/contract.ts";
import { callFn, emitEvent, key, typed } from "../define.ts";

export const policyCodec = symbolEnum(SUBNAME_POLICIES);
export const childList = vec(labelCodec);
export const childKey = tuple([labelCodec, labelCodec] as const);

export const K = {
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

export function nameNodeOf(ctx: InvocationContext, label: string): string {
  return childNode(namespaceNode(ctx), label);
}

/** The namespace, read from the registry on every use: ownership (and the lock) can change there at any time. */
export function namespaceRecord(ctx: InvocationContext) {
  const registry = typed(ctx.storage).need(K.registry, address, E.NAMESPACE_NOT_FOUND);
  const ns = callFn(ctx, registry, RegistryFns.namespace, { node: namespaceNode(ctx) });
  if (ns === null) throw new ContractError(E.NAMESPACE_NOT_FOUND);
  return ns;
}

export function owner(ctx: InvocationContext): string {
  return namespaceRecord(ctx).owner;
}

/** A name resolves while it is active and not past a set expiry (0 = no expiry). */
export function isLive(name: Name, now: bigint): boolean {
  return name.active && (name.expiresAt === 0n || name.expiresAt > now);
}

export function loadName(ctx: InvocationContext, label: string): Name {
  return typed(ctx.storage).need(K.name(label), Name, E.NAME_NOT_FOUND);
}

export function liveName(ctx: InvocationContext, label: string): Name {
  const name = loadName(ctx, label);
  if (!isLive(name, ctx.timestamp)) throw new ContractError(E.NAME_NOT_FOUND, "name is not live");
  return name;
}

export function policy(ctx: InvocationContext): SubnamePolicyValue {
  return typed(ctx.storage).get(K.policy, policyCodec) ?? "enabled";
}

export function saveName(ctx: InvocationContext, label: string, name: Name): void {
  typed(ctx.storage).set(K.name(label), Name, name);
}

export function nameChanged(
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

export function transferChanged(
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
export function asParentHolder(ctx: InvocationContext, label: string, parentGeneration: bigint): Name {
  const parent = loadName(ctx, label);
  ctx.requireAuth(parent.holder);
  if (!isLive(parent, ctx.timestamp)) throw new ContractError(E.PARENT_INACTIVE);
  if (parent.generation !== parentGeneration) throw new ContractError(E.GENERATION_MISMATCH);
  return parent;
}

export function subnameChanged(
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
