// How /v1/resolve answers get into the cache: a miss reads its one name (prepared statement), and re-reads ahead of
// a lapse (refresh-ahead, resolve-cache.ts) are gathered for a few milliseconds and read together in one statement.
// Why gathered: answers filled together lapse together (a warm-up, a restart, a burst of new readers), and their
// re-reads came as thousands of single-row queries within seconds, each costing the API more CPU (pool, protocol,
// mapping) than PostgreSQL spends answering it; served alongside, resolve throughput fell by a third while they
// ran. One statement per batch costs about what one single read does.
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
const MAX_REFRESH_BATCH = 1000;

export interface ResolveFill {
  /** Reads the answer of `ref` from the mirror and stores it (a miss). */
  readonly fill: (ref: NameRef) => Promise<CachedResolution>;
  /** Re-reads the answer of `node` (named `name`) with others asked for at about the same time, and stores it. */
  readonly refresh: (node: string, name: string) => Promise<CachedResolution>;
}

/**
 * Fills read the writer (`db`): a read replica may not yet show a change whose notification already arrived, and
 * the stale answer would then stay cached until the name's next change.
 */
export function resolveFill(db: Db, cache: ResolveCache): ResolveFill {
  // Prepared on first use: building them touches the database handle, which a starting app must not need yet.
  let one: ReturnType<typeof oneQuery> | undefined;
  let many: ReturnType<typeof manyQuery> | undefined;

  const fill = async (ref: NameRef): Promise<CachedResolution> => {
    one ??= oneQuery(db);
    const ticket = cache.ticket();
    const [row] = await one.execute({ node: ref.node });
    const entry = answerOf(ref.name, row);
    cache.set(ref.node, ref.name, entry, ticket);
    return entry;
  };

  const loader = new DataLoader<{ node: string; name: string }, CachedResolution, string>(
    async (refs) => {
      many ??= manyQuery(db);
      // One ticket for the batch: a change notified while it is read drops all of it (they lapse and refill).
      const ticket = cache.ticket();
      const rows = await many.execute({ nodes: refs.map((ref) => ref.node) });
      const byNode = new Map(rows.map((row) => [row.node, row]));
      return refs.map(({ node, name }) => {
        const entry = answerOf(name, byNode.get(node));
        cache.set(node, name, entry, ticket);
        return entry;
      });
    },
    {
      cache: false,
      maxBatchSize: MAX_REFRESH_BATCH,
      batchScheduleFn: (callback) => setTimeout(callback, REFRESH_GATHER_MS),
    },
  );

  return { fill, refresh: (node, name) => loader.load({ node, name }) };
}

const COLUMNS = {
  holder: names.holder,
  active: names.active,
  expiresAt: names.expiresAt,
  issuedLedger: names.issuedLedger,
  locked: namespaces.locked,
};

/**
 * The read behind every cache miss, built once and prepared (a named statement per connection): building the
 * query with Drizzle on every miss cost more than PostgreSQL spends answering it.
 */
function oneQuery(db: Db) {
  return db
    .select(COLUMNS)
    .from(names)
    .innerJoin(namespaces, eq(namespaces.label, names.namespace))
    .where(eq(names.node, sql.placeholder("node")))
    .limit(1)
    .prepare("namereg_resolve_fill");
}

/** The same read for a batch of nodes. */
function manyQuery(db: Db) {
  return db
    .select({ node: names.node, ...COLUMNS })
    .from(names)
    .innerJoin(namespaces, eq(namespaces.label, names.namespace))
    .where(sql`${names.node} = any(${sql.placeholder("nodes")}::text[])`)
    .prepare("namereg_resolve_refill");
}

type Row = Awaited<ReturnType<ReturnType<typeof oneQuery>["execute"]>>[number];

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
