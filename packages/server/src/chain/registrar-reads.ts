// Live registrar reads for the subname, network-address and holder-transaction routes: names, children and the
// subname policy, and chain time to judge liveness by. A failed read is 503 chain_unavailable.
import { RegistrarFns } from "@namereg/protocol";
import { ApiError } from "../errors.ts";
import type { ChainClient } from "./chain-client.ts";
import { type LiveReadOptions, liveRead } from "./live-reads.ts";

const readOpts = { failure: "chain_unavailable" } as const;

/**
 * Subname reads: a registrar built without the subname interface answers them with #9 (docs/contracts.md "Errors"), which is
 * 409 subnames_unsupported here, not the #9 of the naming table (a network not enabled).
 */
const subnameReadOpts: LiveReadOptions = {
  failure: "chain_unavailable",
  contractError: (code) => (code === 9 ? new ApiError("subnames_unsupported") : undefined),
};

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

export function readName(chainClient: ChainClient | undefined, registrar: string, label: string) {
  return liveRead(chainClient, registrar, RegistrarFns.name, { label }, readOpts);
}

export async function readPolicy(chainClient: ChainClient | undefined, registrar: string) {
  return liveRead(chainClient, registrar, RegistrarFns.subname_policy, {}, subnameReadOpts);
}

export function readChild(
  chainClient: ChainClient | undefined,
  registrar: string,
  label: string,
  child: string,
) {
  return liveRead(chainClient, registrar, RegistrarFns.subname, { label, child }, subnameReadOpts);
}

export function readChildren(
  chainClient: ChainClient | undefined,
  registrar: string,
  label: string,
  offset: number,
  limit: number,
) {
  return liveRead(chainClient, registrar, RegistrarFns.subnames, { label, offset, limit }, subnameReadOpts);
}

/** The parent of a subname: 404 name_not_found when it was never issued (nothing can hang below it). */

export async function inOrder<T extends readonly unknown[]>(
  reads: { [K in keyof T]: Promise<T[K]> },
): Promise<T> {
  const settled = await Promise.allSettled(reads);
  for (const s of settled) if (s.status === "rejected") throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
