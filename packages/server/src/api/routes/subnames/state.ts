// Live state of names and subnames for the subname, network-address and holder-transaction routes. Which
// registrar and resolver serve a namespace comes from the mirror (routing changes are indexed events, spec §6.2);
// everything a caller acts on (holders, generations, children, policies, liveness by chain time) is read live.
import {
  type Child,
  formatName,
  isValidLabel,
  type Name,
  nameNode,
  type ParsedName,
  RegistrarFns,
  type SubnamePolicyValue,
  subnameNode,
  subnamePolicyToHttp,
} from "@namereg/protocol";
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { ChainClient } from "../../../chain/chain-client.ts";
import { liveRead } from "../../../chain/live-reads.ts";
import { namespaces } from "../../../db/tables.ts";
import type { Database } from "../../../db/types.ts";
import { ApiError } from "../../errors.ts";

/** A single lower-case label as a path segment. */
export const LabelParam = z.string().refine(isValidLabel, "must be a lower-case label");
/** u64 as an exact decimal string. */
export const Generation = z.string().regex(/^(0|[1-9]\d{0,19})$/, "must be a decimal integer");
const Iso = z.iso.datetime();
export const PolicyHttp = z.enum(["enabled", "creation-disabled", "suspended"]);

export const ParentContextSchema = z.object({
  name: z.string(),
  holder: z.string(),
  generation: Generation,
  active: z.boolean(),
  expiresAt: Iso.nullable(),
});

export const ChildRecordSchema = z.object({
  exists: z.boolean(),
  active: z.boolean(),
  validBinding: z.boolean(),
  controller: z.string().nullable(),
  parentGeneration: Generation,
  generation: Generation,
  address: z.string(),
  expiresAt: Iso.nullable(),
  policy: PolicyHttp,
  source: z.literal("chain"),
});

export interface NamespaceRoute {
  readonly label: string;
  readonly node: string;
  readonly owner: string;
  readonly registrar: string;
  readonly resolver: string | null;
}

/** The namespace's current registrar and resolver as indexed; 404 namespace_not_found when none. */
export async function namespaceRoute(db: Database, namespace: string): Promise<NamespaceRoute> {
  const rows = await db.replica
    .select({
      label: namespaces.label,
      node: namespaces.node,
      owner: namespaces.owner,
      registrar: namespaces.registrar,
      resolver: namespaces.resolver,
    })
    .from(namespaces)
    .where(eq(namespaces.label, namespace))
    .limit(1);
  const row = rows[0];
  if (row === undefined) throw new ApiError("namespace_not_found", { namespace });
  return row;
}

const readOpts = { failure: "chain_unavailable" } as const;

/**
 * Unix seconds of the latest closed ledger: liveness is judged by chain time, as the contracts judge it, so a
 * server clock ahead of or behind the chain cannot call a name live that the chain does not.
 */
export async function chainTime(chainClient: ChainClient | undefined): Promise<bigint> {
  if (chainClient === undefined) throw new ApiError("chain_unavailable");
  let closeTime: string;
  try {
    closeTime = (await chainClient.head()).closeTime;
  } catch {
    throw new ApiError("chain_unavailable", { detail: "the chain head could not be read" });
  }
  if (!/^\d{1,12}$/.test(closeTime))
    throw new ApiError("chain_unavailable", { detail: "unreadable chain time" });
  return BigInt(closeTime);
}

export const isLive = (name: Name, now: bigint): boolean =>
  name.active && (name.expiresAt === 0n || name.expiresAt > now);

export const expiryIso = (expiresAt: bigint): string | null =>
  expiresAt === 0n ? null : new Date(Number(expiresAt) * 1000).toISOString();

export function readName(chainClient: ChainClient | undefined, registrar: string, label: string) {
  return liveRead(chainClient, registrar, RegistrarFns.name, { label }, readOpts);
}

export async function readPolicy(chainClient: ChainClient | undefined, registrar: string) {
  return liveRead(chainClient, registrar, RegistrarFns.subname_policy, {}, readOpts);
}

export function readChild(
  chainClient: ChainClient | undefined,
  registrar: string,
  label: string,
  child: string,
) {
  return liveRead(chainClient, registrar, RegistrarFns.subname, { label, child }, readOpts);
}

export function readChildren(
  chainClient: ChainClient | undefined,
  registrar: string,
  label: string,
  offset: number,
  limit: number,
) {
  return liveRead(chainClient, registrar, RegistrarFns.subnames, { label, offset, limit }, readOpts);
}

/** The parent of a subname: 404 name_not_found when it was never issued (nothing can hang below it). */
export function parentOrNotFound(name: Name | null, parentName: string): Name {
  if (name === null) throw new ApiError("name_not_found", { name: parentName });
  return name;
}

export type ParentContext = z.infer<typeof ParentContextSchema>;
export type ChildRecord = z.infer<typeof ChildRecordSchema>;

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
 * A stored child as HTTP shows it (spec §2.5). validBinding: stored parent generation equals the parent's current
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
export async function inOrder<T extends readonly unknown[]>(
  reads: { [K in keyof T]: Promise<T[K]> },
): Promise<T> {
  const settled = await Promise.allSettled(reads);
  for (const s of settled) if (s.status === "rejected") throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
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
 * suspended, 404 name_expired for a timed name past its expiry (spec §4.1 rule 1). These stay distinct from a
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
