// The change feed between the indexer and every API replica's caches: each batch transaction queues the nodes
// whose resolution may have changed with pg_notify, which PostgreSQL (and PGlite, in process) delivers exactly when
// the transaction commits. A writer killed between commit and delivery therefore loses nothing, and a batch that
// rolls back announces nothing.
import { sql } from "drizzle-orm";
import type { Db } from "./types.ts";

export const NODE_CHANNEL = "namereg_nodes";
/** NOTIFY payloads are limited to 8000 bytes; 64-hex nodes go out in groups well under it. */
const NODES_PER_NOTIFY = 100;

/** Queues the notification in `tx`; call it inside the transaction that makes the change. */
export async function notifyNodeChanges(tx: Db, nodes: Iterable<string>): Promise<void> {
  const list = [...nodes];
  for (let i = 0; i < list.length; i += NODES_PER_NOTIFY) {
    const payload = list.slice(i, i + NODES_PER_NOTIFY).join(",");
    await tx.execute(sql`select pg_notify(${NODE_CHANNEL}, ${payload})`);
  }
}
