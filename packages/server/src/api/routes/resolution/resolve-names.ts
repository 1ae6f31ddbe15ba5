// The answer of `GET /v1/resolve/{namespace}/{label}` for one name, and of `POST /v1/resolve` for up to 100
// (docs/api.md "POST /v1/resolve"): one rule for both, so a batch item is exactly what the single route answers.
// Names come from the resolve cache; a batch's misses are filled together (resolve-fill.ts gathers every miss of
// one turn of the event loop into one statement). A subname (`{label}` = `child.label`) is read from the mirror on
// every request: its answer follows its parent's and its namespace's state, which the cache's per-node
// invalidation does not track. A name whose fill fails because the database is unavailable gets its stale
// answer, when the cache kept one (stale-if-error, resolve-cache.ts): the last the mirror said, ledger and all.
import { normaliseLabel, subnameNode } from "@namereg/protocol";
import type { Db } from "../../../db/types.ts";
import { isDatabaseUnavailable } from "../../../db/unavailable.ts";
import { ApiError } from "../../errors.ts";
import type { ExpiryClock } from "../../expiry-clock.ts";
import type { ResolutionCounter } from "../../resolution-counter.ts";
import type { CachedResolution, ResolveCache } from "../../resolve-cache.ts";
import { NAME_RULE } from "../path-params.ts";
import { type NameRef, nameOf, nodeOf } from "./params.ts";
import { type SubnameRow, subnameRows } from "./queries.ts";
import { isoOfSeconds, ResolveResponse } from "./schemas.ts";

export interface ResolveNamesDeps {
  readonly cache: ResolveCache;
  readonly fill: (ref: NameRef) => Promise<CachedResolution>;
  readonly clock: ExpiryClock;
  readonly counter: ResolutionCounter;
  /** Where subnames are read. */
  readonly mirror: Db;
}

/** A batch item that did not resolve: the single route's error code, with the name. */
export interface ItemError {
  readonly name: string;
  readonly error: string;
  readonly detail?: string;
}

/** What the batch's `name` field rule says when an item is not `label.namespace` or `child.label.namespace`. */
export const BATCH_NAME_RULE =
  "must be label.namespace or child.label.namespace, each part a label (A-Z is lower-cased)";

/** A parsed path: a name, or a subname when `{label}` is `child.label`. */
type Target =
  | { readonly kind: "name"; readonly ref: Omit<NameRef, "node"> }
  | { readonly kind: "subname"; readonly name: string; readonly node: string };

/** The path segments of the single route, checked as it checks them (400 invalid_name naming the segment). */
function targetOf(params: { namespace: string; label: string }): Target {
  if (!params.label.includes(".")) return { kind: "name", ref: nameOf(params) };
  const { namespace } = nameOf({ namespace: params.namespace, label: "x" });
  const parts = params.label.split(".").map(normaliseLabel);
  const [child, label] = parts;
  if (parts.length !== 2 || child == null || label == null) {
    throw new ApiError("invalid_name", { detail: `label: ${NAME_RULE}` });
  }
  return {
    kind: "subname",
    name: `${child}.${label}.${namespace}`,
    node: subnameNode(child, label, namespace),
  };
}

/** The single route's path segments of a batch item `label.namespace` or `child.label.namespace`. */
function segmentsOf(raw: string): { namespace: string; label: string } {
  const parts = raw.split(".");
  if (parts.length < 2 || parts.length > 3)
    throw new ApiError("invalid_name", { detail: `name: ${BATCH_NAME_RULE}` });
  const namespace = parts.pop() as string;
  return { namespace, label: parts.join(".") };
}

/** The resolve answer of a subname's mirror row, or null when it is not active (the contracts' rule). */
export function subnameAnswer(
  name: string,
  row: SubnameRow | undefined,
  isExpired: (expiresAt: bigint | null) => boolean,
): string | null {
  // Active: it exists, its parent is issued and unexpired, it was created under the parent's current issuance
  // (a reissued parent has a new generation, which leaves older children stale) and the policy lets it resolve.
  if (
    row === undefined ||
    !row.exists ||
    !row.parentActive ||
    isExpired(row.parentExpiresAt) ||
    row.ledger < row.parentIssuedLedger ||
    row.policy === "suspended"
  ) {
    return null;
  }
  return JSON.stringify(
    ResolveResponse.parse({
      name,
      // What the lookup contract pays for an active subname: the address stored for it.
      account: row.address,
      // The parent's holder can remove a subname at any time: never `permanent`.
      ownership: row.parentExpiresAt === null ? "revocable" : "expiring",
      storage: "live",
      expires_at: row.parentExpiresAt === null ? null : isoOfSeconds(row.parentExpiresAt),
      ledger: row.ledger,
    }),
  );
}

export function resolveNames({ cache, fill, clock, counter, mirror }: ResolveNamesDeps) {
  const isExpired = (expiresAt: bigint | null) => clock.isExpired(expiresAt);

  /** A name's cached (or filled) entry; the body to send, or the single route's error. */
  const nameBody = (name: string, node: string, entry: CachedResolution): string => {
    if (entry.kind === "missing") throw new ApiError("name_not_found", { name });
    // Checked on every hit: a cached answer must never outlive the name's expiry.
    if (clock.isExpired(entry.expiresAt)) throw new ApiError("name_expired", { name });
    counter.increment(node);
    return entry.body;
  };

  const nameEntry = (
    ref: Omit<NameRef, "node">,
  ): { node: string; entry: CachedResolution | Promise<CachedResolution> } => {
    const hit = cache.hit(ref.name);
    if (hit !== undefined) {
      cache.stats.hits++;
      return { node: hit.node, entry: hit.value };
    }
    cache.stats.misses++;
    const node = nodeOf(ref);
    const entry = fill({ ...ref, node }).catch((error: unknown) => {
      const stale = isDatabaseUnavailable(error) ? cache.stale(node) : undefined;
      if (stale === undefined) throw error;
      cache.stats.staleServed++;
      return stale;
    });
    // Awaited later (a batch awaits its items in order): a failure must not count as unhandled meanwhile.
    entry.catch(() => {});
    return { node, entry };
  };

  const subnameBodies = async (
    targets: readonly { name: string; node: string }[],
  ): Promise<Map<string, string | null>> => {
    const rows =
      targets.length === 0 ? [] : await subnameRows(mirror, [...new Set(targets.map((t) => t.node))]);
    const byNode = new Map(rows.map((row) => [row.node, row]));
    return new Map(targets.map((t) => [t.node, subnameAnswer(t.name, byNode.get(t.node), isExpired)]));
  };

  /** The single route: the serialised 200 body, or a thrown ApiError. */
  async function one(params: { namespace: string; label: string }): Promise<string> {
    const target = targetOf(params);
    if (target.kind === "subname") {
      const body = (await subnameBodies([target])).get(target.node);
      if (body == null) throw new ApiError("name_not_found", { name: target.name });
      return body;
    }
    const { node, entry } = nameEntry(target.ref);
    return nameBody(target.ref.name, node, await entry);
  }

  /** The batch: `{"results":[…]}`, each item the single route's body or its error as `{ name, error, detail? }`. */
  async function many(raws: readonly string[]): Promise<string> {
    const items = raws.map((raw) => {
      try {
        return { raw, target: targetOf(segmentsOf(raw)) };
      } catch (error) {
        return { raw, error };
      }
    });
    // Every miss is asked for in this turn, so the fill reads them in one statement; subnames in one more.
    const names = items.map((item) => (item.target?.kind === "name" ? nameEntry(item.target.ref) : null));
    const subnames = await subnameBodies(
      items.flatMap((item) => (item.target?.kind === "subname" ? [item.target] : [])),
    );
    const results: string[] = [];
    for (const [i, item] of items.entries()) {
      try {
        if (item.target === undefined) throw item.error;
        if (item.target.kind === "subname") {
          const body = subnames.get(item.target.node);
          if (body == null) throw new ApiError("name_not_found", { name: item.target.name });
          results.push(body);
        } else {
          const named = names[i] as NonNullable<(typeof names)[number]>;
          results.push(nameBody(item.target.ref.name, named.node, await named.entry));
        }
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        const body = error.body() as { error: string; detail?: string; name?: string };
        const failed: ItemError = {
          name: typeof body.name === "string" ? body.name : item.raw,
          error: body.error,
          ...(body.detail === undefined ? {} : { detail: body.detail }),
        };
        results.push(JSON.stringify(failed));
      }
    }
    return `{"results":[${results.join(",")}]}`;
  }

  return { one, many };
}
