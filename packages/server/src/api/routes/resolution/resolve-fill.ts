// How /v1/resolve answers get into the cache: misses that arrive together (one turn of the event loop) and re-reads
// ahead of a lapse (refresh-ahead, resolve-cache.ts; gathered for a few milliseconds) are read in one statement per
// batch. Why gathered: a single-row read costs the API more CPU (pool, protocol, mapping) than PostgreSQL spends
// answering it, so one statement per batch costs about what one single read did; answers filled together lapse
// together (a warm-up, a restart), and their re-reads used to come as thousands of single-row queries within
// seconds, which cut resolve throughput by a third while they ran.
import DataLoader from "dataloader";
import { eq, sql } from "drizzle-orm";
import { names, namespaces } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";
import { type CachedResolution, foundAnswer, type ResolveCache } from "../../resolve-cache.ts";
import type { NameRef } from "./params.ts";
import { isoOfSeconds, ownershipOf, ResolveResponse } from "./schemas.ts";

/** How long re-reads are gathered before their batch is read. */
const REFRESH_GATHER_MS = 5;
/** Most names in one batched read (one `= any($1)` parameter). */
const MAX_BATCH = 1000;

export interface ResolveFill {
  /** Reads the answer of `ref` from the mirror with the other misses of this turn of the event loop, and stores it. */
  readonly fill: (ref: NameRef) => Promise<CachedResolution>;
  /** Re-reads the answer of `node` (named `name`) with others asked for at about the same time, and stores it. */
  readonly refresh: (node: string, name: string) => Promise<CachedResolution>;
}

/**
 * Fills read the writer (`db`): a read replica may not yet show a change whose notification already arrived, and
 * the stale answer would then stay cached until the name's next change.
 */
export function resolveFill(db: Db, cache: ResolveCache): ResolveFill {
  // Prepared on first use: building it touches the database handle, which a starting app must not need yet.
  let many: ReturnType<typeof manyQuery> | undefined;
  const readBatch = async (
    refs: readonly { node: string; name: string }[],
  ): Promise<(CachedResolution | Error)[]> => {
    many ??= manyQuery(db);
    // One ticket for the batch: a change notified while it is read drops all of it (they lapse and refill).
    const ticket = cache.ticket();
    const rows = await many.execute({ nodes: refs.map((ref) => ref.node) });
    const byNode = new Map(rows.map((row) => [row.node, row]));
    return refs.map(({ node, name }) => {
      // A row that does not make a valid answer fails its own request only, not the batch's others.
      try {
        const entry = answerOf(name, byNode.get(node));
        cache.set(node, name, entry, ticket);
        return entry;
      } catch (error) {
        return error instanceof Error ? error : new Error(String(error));
      }
    });
  };
  // Misses are gathered until the event loop has run every I/O callback of its turn (setImmediate): under load,
  // the misses of all requests that arrived together are one statement, and a lone miss waits for nothing.
  const misses = new DataLoader(readBatch, {
    cache: false,
    maxBatchSize: MAX_BATCH,
    batchScheduleFn: (callback) => setImmediate(callback),
  });
  const refreshes = new DataLoader(readBatch, {
    cache: false,
    maxBatchSize: MAX_BATCH,
    batchScheduleFn: (callback) => setTimeout(callback, REFRESH_GATHER_MS),
  });
  return {
    fill: (ref) => misses.load({ node: ref.node, name: ref.name }),
    refresh: (node, name) => refreshes.load({ node, name }),
  };
}

const COLUMNS = {
  holder: names.holder,
  active: names.active,
  expiresAt: names.expiresAt,
  issuedLedger: names.issuedLedger,
  locked: namespaces.locked,
};

/**
 * The read behind every cache miss and re-read, built once and prepared (a named statement per connection):
 * building the query with Drizzle on every miss cost more than PostgreSQL spends answering it.
 */
export function manyQuery(db: Db) {
  return db
    .select({ node: names.node, ...COLUMNS })
    .from(names)
    .innerJoin(namespaces, eq(namespaces.label, names.namespace))
    .where(sql`${names.node} = any(${sql.placeholder("nodes")}::text[])`)
    .prepare("namereg_resolve_refill");
}

type Row = Awaited<ReturnType<ReturnType<typeof manyQuery>["execute"]>>[number];

/** The resolve answer of `name` given its row in the mirror, validated and serialised once for the cache. */
function answerOf(name: string, row: Row | undefined): CachedResolution {
  // Reclaimed names do not resolve, and are indistinguishable from never-issued ones here.
  if (row === undefined || !row.active) return { kind: "missing" };
  const body = ResolveResponse.parse({
    name,
    account: row.holder,
    // A lock is forever, so a cached `revocable` can only be too cautious, never too trusting; the lock's batch
    // drops the namespace's cached answers (`ns:<label>` on the change feed), the positive TTL backs that up.
    ownership: ownershipOf(row.expiresAt, row.locked),
    storage: "live",
    expires_at: row.expiresAt === null ? null : isoOfSeconds(row.expiresAt),
    ledger: row.issuedLedger,
  });
  return foundAnswer(name, JSON.stringify(body), row.expiresAt);
}
