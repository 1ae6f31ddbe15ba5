// The change feed between the indexer and every API replica's caches: after each committed batch the indexer
// publishes the nodes whose resolution may have changed (NOTIFY on PostgreSQL, in-process on PGlite).
import type { Database } from "./types.ts";

export const NODE_CHANNEL = "namereg_nodes";
/** NOTIFY payloads are limited to 8000 bytes; 64-hex nodes go out in groups well under it. */
const NODES_PER_NOTIFY = 100;

export async function publishNodeChanges(database: Database, nodes: Iterable<string>): Promise<void> {
  const list = [...nodes];
  for (let i = 0; i < list.length; i += NODES_PER_NOTIFY) {
    await database.notify(NODE_CHANNEL, list.slice(i, i + NODES_PER_NOTIFY).join(","));
  }
}
