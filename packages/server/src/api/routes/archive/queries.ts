// The mirror reads of the archive routes (archive.ts): a page of archived events.
import { and, asc, eq, gt, type SQL, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { events } from "../../../db/tables.ts";
import type { Db } from "../../../db/types.ts";

export interface EventFilters {
  readonly contractId?: string | undefined;
  readonly subject?: string | undefined;
  readonly namespace?: string | undefined;
  readonly txHash?: string | undefined;
}

/**
 * Up to `limit` archived events matching `filters` after the event `after` (from the first when undefined).
 *
 * A filtered page walks that filter's (column, id) index from the cursor and stops at the page, whatever the
 * archive's size and wherever the filter's events lie in it. Written plainly (`column = $1 … order by id`), the
 * planner may instead walk the whole archive's key from the cursor and skip other events: it prices that as cheap
 * for a namespace or contract with a tenth of the events, assuming them spread evenly, and it then reads to the
 * end of the archive for one with no events after the cursor (at 10M events, a 99%-deep page of a namespace with a
 * tenth of them read 948 pages by the key against 101 by its index; bench/HISTORY.md "scale"). Ordering by
 * (column, id) asks for the index's order, and `= any(array[$1])` keeps the planner from dropping the column from
 * that order as a constant, which it does for `=`; db/plans.integration.test.ts checks the plan.
 */
export function eventsPage(replica: Db, filters: EventFilters, after: string | undefined, limit: number) {
  // The first filter given leads (the most selective first); the others are checked on its rows.
  const filtered: [PgColumn, string | undefined][] = [
    [events.txHash, filters.txHash],
    [events.subject, filters.subject],
    [events.contractId, filters.contractId],
    [events.namespace, filters.namespace],
  ];
  const given = filtered.filter((f): f is [PgColumn, string] => f[1] !== undefined);
  const [lead, ...rest] = given;
  const where: (SQL | undefined)[] = [
    lead === undefined ? undefined : sql`${lead[0]} = any(array[${lead[1]}]::text[])`,
    ...rest.map(([column, value]) => eq(column, value)),
    after === undefined ? undefined : gt(events.id, after),
  ];
  return replica
    .select()
    .from(events)
    .where(and(...where))
    .orderBy(...(lead === undefined ? [] : [asc(lead[0])]), asc(events.id))
    .limit(limit);
}
