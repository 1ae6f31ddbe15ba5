// The mirror reads of the archive routes (archive.ts): a page of archived events.
import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { events } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

export interface EventFilters {
  readonly contractId?: string | undefined;
  readonly subject?: string | undefined;
  readonly namespace?: string | undefined;
  readonly txHash?: string | undefined;
}

/** Up to `limit` archived events matching `filters` after the event `after` (from the first when undefined). */
export function eventsPage(replica: Db, filters: EventFilters, after: string | undefined, limit: number) {
  const where: SQL[] = [];
  if (filters.contractId !== undefined) where.push(eq(events.contractId, filters.contractId));
  if (filters.subject !== undefined) where.push(eq(events.subject, filters.subject));
  if (filters.namespace !== undefined) where.push(eq(events.namespace, filters.namespace));
  if (filters.txHash !== undefined) where.push(eq(events.txHash, filters.txHash));
  if (after !== undefined) where.push(gt(events.id, after));
  return replica
    .select()
    .from(events)
    .where(and(...where))
    .orderBy(asc(events.id))
    .limit(limit);
}
