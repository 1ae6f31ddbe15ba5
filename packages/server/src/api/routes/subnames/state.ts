// Live state of names and subnames for the subname, network-address and holder-transaction routes: everything a
// caller acts on (holders, generations, children, policies, liveness by chain time) is read live
// (chain/registrar-reads.ts) and judged here.
import {
  type Child,
  formatName,
  type Name,
  nameNode,
  type ParsedName,
  type SubnamePolicyValue,
  subnameNode,
  subnamePolicyToHttp,
} from "@namereg/protocol";
import type { ChainClient } from "../../../chain/chain-client.ts";
import { chainTime, inOrder, readChild, readName, readPolicy } from "../../../chain/registrar-reads.ts";
import { ApiError } from "../../errors.ts";
import type { NamespaceRoute } from "./queries.ts";
import type { ChildRecord, ParentContext } from "./schemas.ts";

export const isLive = (name: Name, now: bigint): boolean =>
  name.active && (name.expiresAt === 0n || name.expiresAt > now);

export const expiryIso = (expiresAt: bigint): string | null =>
  expiresAt === 0n ? null : new Date(Number(expiresAt) * 1000).toISOString();

export function parentOrNotFound(name: Name | null, parentName: string): Name {
  if (name === null) throw new ApiError("name_not_found", { name: parentName });
  return name;
}

export function parentContext(parentName: string, parent: Name, now: bigint): ParentContext {
  return {
    name: parentName,
    holder: parent.holder,
    generation: parent.generation.toString(),
    active: isLive(parent, now),
    expiresAt: expiryIso(parent.expiresAt),
  };
}

/**
 * A stored child as HTTP shows it (docs/api.md "Subnames, network addresses and holder transactions"). validBinding: stored parent generation equals the parent's current
 * one. active: the contracts' own definition (exists, parent live by chain time, binding holds, policy not
 * suspended). controller: the parent holder while the binding holds; null for a stale child, whose record
 * belongs to an earlier issuance of the parent.
 */
export function childRecord(
  child: Child,
  parent: Name,
  policy: SubnamePolicyValue,
  now: bigint,
): ChildRecord {
  const validBinding = child.parentGeneration === parent.generation;
  return {
    exists: child.exists,
    active: child.exists && isLive(parent, now) && validBinding && policy !== "suspended",
    validBinding,
    controller: validBinding ? parent.holder : null,
    parentGeneration: child.parentGeneration.toString(),
    generation: child.generation.toString(),
    address: child.address,
    expiresAt: expiryIso(parent.expiresAt),
    policy: subnamePolicyToHttp(policy) as ChildRecord["policy"],
    source: "chain",
  };
}

/** Runs reads together and reports the first failure in the order given, so answers do not depend on timing. */

export type NameOrSubname = Extract<ParsedName, { kind: "name" | "subname" }>;

export interface Controlled {
  readonly name: string;
  readonly node: string;
  /** Who authorises record writes for the node: the name's holder, or a subname's parent holder. */
  readonly holder: string;
}

/**
 * A live name or subname and its controller; 404 name_not_found when unknown, reclaimed, removed, stale or
 * suspended, 404 name_expired for a timed name past its expiry (docs/api.md "Subnames, network addresses and holder transactions"). These stay distinct from a
 * read that succeeded with nothing in it.
 */
export async function liveControl(
  chainClient: ChainClient | undefined,
  ns: NamespaceRoute,
  parsed: NameOrSubname,
): Promise<Controlled> {
  const full = formatName(parsed);
  if (parsed.kind === "name") {
    const [name, now] = await inOrder([
      readName(chainClient, ns.registrar, parsed.label),
      chainTime(chainClient),
    ] as const);
    if (name === null || !name.active) throw new ApiError("name_not_found", { name: full });
    if (!isLive(name, now)) throw new ApiError("name_expired", { name: full });
    return { name: full, node: nameNode(parsed.label, parsed.namespace), holder: name.holder };
  }
  const [name, { policy }, stored, now] = await inOrder([
    readName(chainClient, ns.registrar, parsed.label),
    readPolicy(chainClient, ns.registrar),
    readChild(chainClient, ns.registrar, parsed.label, parsed.child),
    chainTime(chainClient),
  ] as const);
  if (name === null || stored === null || !childRecord(stored, name, policy, now).active) {
    throw new ApiError("name_not_found", { name: full });
  }
  return { name: full, node: subnameNode(parsed.child, parsed.label, parsed.namespace), holder: name.holder };
}
