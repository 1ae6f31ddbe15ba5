// The mirror reads of the holder-transaction routes (holder-tx.ts).
import { and, eq } from "drizzle-orm";
import { trackedContracts } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

/** The role the indexer follows a (not retired) contract in, as stored; undefined when it follows none. */
export async function trackedRoleOf(db: Db, contractId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ role: trackedContracts.role })
    .from(trackedContracts)
    .where(and(eq(trackedContracts.contractId, contractId), eq(trackedContracts.retired, false)));
  return row?.role;
}
