// Which listings a buyer may still buy, judged from the indexer's mirror in the same query that reads them
// (docs/market.md, "Listing lifecycle"). The escrow watcher is the only writer of a listing's `state`, and it
// moves a sold listing to `sold`/`closed` only on its next poll after the indexer; until then the row still says
// `active`. The mirror already knows better: the indexer writes a namespace's new owner (`namespaces.owner`) and
// the `acc_tr` event in the same transaction as its processed ledger. So a listing is open only while, in the
// mirror, its seller still owns the namespace and no transfer of it has been accepted since the bond that made
// the listing active. This closes it to buyers the moment the transfer is indexed, without the indexer having to
// know about listings or the watcher's bond and deposit bookkeeping being bypassed.
import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import { events, marketListings, marketPayments, namespaces } from "../../../db/tables.ts";

/**
 * The condition on `market_listings` rows that are open to buyers. `registryId`: the registry whose `acc_tr`
 * events count (another tracked contract cannot close a listing by emitting one); null leaves only the owner
 * check.
 */
export function openListing(registryId: string | null): SQL {
  const acceptedSinceBond =
    registryId === null
      ? sql`false`
      : sql`exists (
          select 1 from ${marketPayments}
          join ${events} on ${events.subject} = ${marketListings.node}
          where ${marketPayments.id} = ${marketListings.bondPayment}
            and ${events.contractId} = ${registryId}
            and ${events.type} = 'acc_tr'
            and ${events.inSuccessfulContractCall}
            and ${events.id} > ${marketPayments.toid}
        )`;
  const condition = and(
    eq(marketListings.state, "active"),
    isNull(marketListings.cancelRequestedAt),
    sql`exists (
      select 1 from ${namespaces}
      where ${namespaces.node} = ${marketListings.node} and ${namespaces.owner} = ${marketListings.seller}
    )`,
    sql`not ${acceptedSinceBond}`,
  );
  if (condition === undefined) throw new Error("unreachable: and() of conditions");
  return condition;
}
