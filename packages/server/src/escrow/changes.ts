// The marketplace's change events (docs/webhooks.md): `market.listed` when the escrow sees a listing's bond and
// the listing turns active, `market.sold` when a sale settles. Each is appended in the verdict's own transaction
// (db/outbox.ts), so a replayed verdict announces nothing twice and a rolled-back one announces nothing.
import { stroopsToXlm } from "@namereg/protocol";
import type { ChangeDraft } from "../changes/catalogue.ts";
import type { TransferEvent } from "./registry-view.ts";
import type { Listing, Payment } from "./verdict-rows.ts";

/** The listing is active: its bond payment is the chain fact behind it. */
export function listedChange(listing: Listing, bond: Payment): ChangeDraft {
  return {
    type: "market.listed",
    namespace: listing.namespace,
    node: listing.node,
    ledger: bond.ledger,
    txHash: bond.txHash,
    eventId: bond.id,
    at: bond.closedAt,
    data: { listingId: listing.id, seller: listing.seller, priceXlm: stroopsToXlm(listing.price) },
  };
}

/** The buyer accepted the transfer the deposit was funded for: the acceptance is the chain fact behind it. */
export function soldChange(
  listing: Listing,
  buyer: string,
  acceptance: Extract<TransferEvent, { type: "acc_tr" }>,
): ChangeDraft {
  return {
    type: "market.sold",
    namespace: listing.namespace,
    node: listing.node,
    ledger: acceptance.ledger,
    txHash: acceptance.txHash,
    eventId: acceptance.id,
    at: acceptance.at === null ? null : new Date(Number(acceptance.at) * 1000),
    data: { listingId: listing.id, seller: listing.seller, buyer, priceXlm: stroopsToXlm(listing.price) },
  };
}
