// Batch reads for lists (a history with 50 counterparties, a contacts view): `POST /v1/resolve` and
// `POST /v1/reverse` (docs/api.md), up to 100 per request; longer lists go as several requests, in order. Each
// item answers for itself: a name that does not resolve is an item with its `error`, never a thrown batch.
// resolveManyVerified reads the lookup contract for every resolved name, a few at a time, as resolveVerified does.
import { type NameregApi, NameregError, unwrap } from "./api.ts";
import type { paths } from "./generated/openapi.ts";
import { type ChainResolution, confirmOnChain, type ResolveVerifiedOptions } from "./resolve-verified.ts";

/** Most names or addresses the API takes in one request. */
export const MAX_BATCH = 100;

type ResolveBatchItem =
  paths["/v1/resolve"]["post"]["responses"][200]["content"]["application/json"]["results"][number];
type ReverseBatchItem =
  paths["/v1/reverse"]["post"]["responses"][200]["content"]["application/json"]["results"][number];

/** A name's resolution, as `GET /v1/resolve/{namespace}/{label}` answers it. */
export type ResolvedItem = Extract<ResolveBatchItem, { account: string }>;
/** A name that did not resolve: the code (and detail) the single route answers for it. */
export type ResolveItemError = {
  readonly name: string;
  readonly error: string;
  readonly detail?: string;
};
export type ResolveManyItem = ResolvedItem | ResolveItemError;

/** An address's name (null when it holds none), or `bad_address` for a malformed one. */
export type ReverseManyItem = ReverseBatchItem;

/** The item resolved (narrows a ResolveManyItem). */
export function isResolved<T extends { name: string }>(item: T | ResolveItemError): item is T {
  return !("error" in item);
}

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += MAX_BATCH) out.push(list.slice(i, i + MAX_BATCH));
  return out;
}

/** `names` (`label.namespace` or `child.label.namespace`) resolved through the API, one item each, in order. */
export async function resolveMany(api: NameregApi, names: readonly string[]): Promise<ResolveManyItem[]> {
  const results: ResolveManyItem[] = [];
  for (const part of chunks(names)) {
    const answer = await unwrap(api.POST("/v1/resolve", { body: { names: part } }));
    results.push(...(answer.results as ResolveManyItem[]));
  }
  return results;
}

/** The reverse hint of each of `addresses` (G… or C…), one item each, in order. */
export async function reverseMany(api: NameregApi, addresses: readonly string[]): Promise<ReverseManyItem[]> {
  const results: ReverseManyItem[] = [];
  for (const part of chunks(addresses)) {
    const answer = await unwrap(api.POST("/v1/reverse", { body: { addresses: part } }));
    results.push(...answer.results);
  }
  return results;
}

export interface ResolveManyVerifiedOptions extends ResolveVerifiedOptions {
  /** Lookup reads in flight at once (default 4): a list of 100 must not open 100 RPC requests together. */
  readonly concurrency?: number;
}

/** A resolved name the chain confirmed. */
export type VerifiedItem = ResolvedItem & { readonly chain: ChainResolution };

/**
 * `names` resolved through the API, each resolved one then confirmed by the lookup contract over the wallet's
 * RPC. An item the chain contradicts is `resolution_mismatch`, one the RPC could not confirm `chain_unavailable`,
 * each with `detail` — never an answer the chain did not confirm.
 */
export async function resolveManyVerified(
  api: NameregApi,
  names: readonly string[],
  options: ResolveManyVerifiedOptions,
): Promise<(VerifiedItem | ResolveItemError)[]> {
  const items = await resolveMany(api, names);
  const verify = async (item: ResolveManyItem): Promise<VerifiedItem | ResolveItemError> => {
    if (!isResolved(item)) return item;
    try {
      return { ...item, chain: await confirmOnChain(item.name, item.account, undefined, options) };
    } catch (error) {
      if (!(error instanceof NameregError)) throw error;
      return {
        name: item.name,
        error: error.code,
        ...(error.detail === undefined ? {} : { detail: error.detail }),
      };
    }
  };
  return mapLimited(items, Math.max(1, options.concurrency ?? 4), verify);
}

/**
 * `fn` over `items` with at most `limit` calls in flight, results in the items' order. By hand, not p-limit: ten
 * lines, and the client keeps its one runtime dependency (openapi-fetch).
 */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
