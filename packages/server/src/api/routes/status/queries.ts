// The mirror reads of the status routes (ledger.ts): the counts of /v1/stats.
import { count, eq } from "drizzle-orm";
import { names, namespaces, subnames } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

/** Namespaces, active names and existing subnames in the mirror, counted together. */
export async function mirrorCounts(replica: Db) {
  const [nsRows, nameRows, subRows] = await Promise.all([
    replica.select({ n: count() }).from(namespaces),
    // Active: issued and not reclaimed (an expired name still counts until it is reclaimed or reissued).
    replica.select({ n: count() }).from(names).where(eq(names.active, true)),
    replica.select({ n: count() }).from(subnames).where(eq(subnames.exists, true)),
  ]);
  return {
    namespaces: Number(nsRows[0]?.n ?? 0),
    names: Number(nameRows[0]?.n ?? 0),
    subnames: Number(subRows[0]?.n ?? 0),
  };
}
