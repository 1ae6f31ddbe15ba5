// The change feed between the indexer and every API replica's caches: each batch transaction queues the nodes
// whose resolution may have changed with pg_notify, which PostgreSQL (and PGlite, in process) delivers exactly when
// the transaction commits. A writer killed between commit and delivery therefore loses nothing, and a batch that
// rolls back announces nothing.
import { sql } from "drizzle-orm";
import type { Db } from "./types.ts";

export const NODE_CHANNEL = "namereg_nodes";
/** NOTIFY payloads are limited to 8000 bytes; 64-hex nodes go out in groups well under it. */
const NODES_PER_NOTIFY = 100;

/** A payload item naming a whole namespace (by label) rather than one node. */
export const NAMESPACE_PREFIX = "ns:";

/**
 * Queues the notification in `tx`; call it inside the transaction that makes the change. Items are 64-hex nodes
 * and `ns:<label>` for namespace-wide changes; a replica that cannot read an item forgets its whole cache.
 */
export async function notifyNodeChanges(
  tx: Db,
  nodes: Iterable<string>,
  namespaces: Iterable<string> = [],
): Promise<void> {
  const list = [...nodes, ...[...namespaces].map((label) => `${NAMESPACE_PREFIX}${label}`)];
  const payloads: string[] = [];
  for (let i = 0; i < list.length; i += NODES_PER_NOTIFY) {
    payloads.push(list.slice(i, i + NODES_PER_NOTIFY).join(","));
  }
  if (payloads.length === 0) return;
  // One statement for all of them: a back-filled page changes ~10,000 nodes, and a round trip per payload was
  // ~100 statements per page.
  await tx.execute(
    sql`select pg_notify(${NODE_CHANNEL}, payload) from unnest(${sql.param(payloads)}::text[]) as payload`,
  );
}
