// Live state of names and subnames as the subname routes show it: everything a caller acts on (holders,
// generations, children, policies, liveness by chain time) is read live (chain/registrar-reads.ts) and judged
// by the rules of api/common/live-control.ts.
import { type Child, type Name, type SubnamePolicyValue, subnamePolicyToHttp } from "@namereg/protocol";
import { isChildActive, isLive } from "../../common/live-control.ts";
import { ApiError } from "../../errors.ts";
import type { ChildRecord, ParentContext } from "./schemas.ts";

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
    active: isChildActive(child, parent, policy, now),
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
