// Whether a name or subname is live and who controls it, judged from live chain reads (chain/registrar-reads.ts):
// the one rule the subname, network-address and holder-transaction routes share.
import {
  type Child,
  formatName,
  type Name,
  nameNode,
  type ParsedName,
  type SubnamePolicyValue,
  subnameNode,
} from "@namereg/protocol";
import type { ChainClient } from "../../chain/chain-client.ts";
import { chainTime, inOrder, readChild, readName, readPolicy } from "../../chain/registrar-reads.ts";
import { ApiError } from "../errors.ts";
import type { NamespaceRoute } from "./namespace-route.ts";

export const isLive = (name: Name, now: bigint): boolean =>
  name.active && (name.expiresAt === 0n || name.expiresAt > now);

/**
 * The contracts' own definition of an active child: it exists, its parent is live by chain time, the binding
 * holds (stored parent generation equals the parent's current one) and the policy is not suspended.
 */
export function isChildActive(child: Child, parent: Name, policy: SubnamePolicyValue, now: bigint): boolean {
  return (
    child.exists &&
    isLive(parent, now) &&
    child.parentGeneration === parent.generation &&
    policy !== "suspended"
  );
}

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
  if (name === null || stored === null || !isChildActive(stored, name, policy, now)) {
    throw new ApiError("name_not_found", { name: full });
  }
  return { name: full, node: subnameNode(parsed.child, parsed.label, parsed.namespace), holder: name.holder };
}
