// A buyer's state on a listing (GET /v1/market/listings/{id}/buyers/{account}, docs/api.md "Marketplace") in words,
// and which of the buyer's next steps make sense now (docs/market.md "Buyer flow"): pay only while the seller's
// proposal to you is live and no deposit of yours is held or being judged; accept once the escrow holds it. Pure
// functions (buyer-state.test.ts), so the panel only renders.
import type { paths } from "@namereg/client";

export type BuyerState =
  paths["/v1/market/listings/{id}/buyers/{account}"]["get"]["responses"][200]["content"]["application/json"];

/** Why the escrow sent a deposit back (its verdicts, docs/market.md "What the escrow does with a payment"). */
const RETURN_REASONS: Readonly<Record<string, string>> = {
  no_live_proposal: "it arrived before the seller's proposal to you was live",
  below_price: "it was below the price",
  intent_expired: "your intent had expired when it arrived",
  listing_not_active: "the listing was no longer open",
  listing_has_deposit: "the escrow already held another buyer's deposit",
  payer_is_not_buyer: "it came from another account than your intent's",
  expired: "the seller's proposal expired before you accepted",
  listing_cancelled: "the seller withdrew the listing (you also receive the seller's bond)",
  sold_elsewhere: "the namespace went to another account (you also receive the seller's bond)",
  proposal_cancelled: "the seller cancelled the proposal (you also receive the seller's bond)",
  proposal_re_aimed:
    "the seller proposed the namespace to another account (you also receive the seller's bond)",
};

const PAYOUT_STATES: Readonly<Record<string, string>> = {
  pending: "being sent",
  signed: "being sent",
  paid: "paid",
  parked: "held for the marketplace operator",
  released: "paid as the marketplace operator directed",
};

/**
 * What an escrow payout of the buyer's deposit is, as a heading; null for the seller's payment, which the sale
 * shows.
 */
export function payoutTerm(p: BuyerState["deposit"]["payouts"][number]): string | null {
  const what: Readonly<Record<string, string>> = {
    refund: "Refund to you",
    bounce: "Sent back to you",
    surplus: "Surplus back to you",
    slash: "The seller's bond, to you",
  };
  if (p.purpose === "seller") return null;
  return `${what[p.purpose] ?? `Escrow payout (${p.purpose})`} (${p.amountXlm} XLM, ${payoutState(p.state)})`;
}

/** An escrow payout's state in words. */
export const payoutState = (state: string): string => PAYOUT_STATES[state] ?? state;

/** The deposit as the buyer reads it. */
export function depositWords(d: BuyerState["deposit"]): string {
  switch (d.state) {
    case "none":
      return "Not paid yet.";
    case "received":
      return `Received (${d.amountXlm} XLM); the escrow is checking it against the registry.`;
    case "funded":
      return `Held in the escrow: ${d.heldXlm} XLM, until you accept.`;
    case "paid_out":
      return `Paid to the seller from the escrow (${d.heldXlm} XLM less the market fee): the sale settled.`;
    case "returned":
      return `Sent back to you: ${RETURN_REASONS[d.verdict ?? ""] ?? `the escrow's verdict was ${d.verdict}`}.`;
    case "parked":
      return "Held for the marketplace operator, who returns it: it was not paid as a plain XLM payment.";
  }
}

/** The seller's transfer proposal as the buyer reads it. */
export function proposalWords(p: BuyerState["proposal"]): string {
  const seen = p.source === "mirror" ? " (as last indexed: the chain could not be read just now)" : "";
  switch (p.state) {
    case "none":
      return `Not yet: the seller has not proposed the transfer to you${seen}.`;
    case "to_you":
      return `Live: proposed to you until ${p.expiresAt ?? "no set time"}${seen}.`;
    case "to_other":
      return `Proposed to another account${seen}.`;
  }
}

/** The sale as the buyer reads it. */
export function settlementWords(s: BuyerState["settlement"], namespace: string): string {
  switch (s.state) {
    case "open":
      return "Not sold yet.";
    case "accepted":
      return `You accepted: ${namespace} is yours on the registry; the escrow is paying the seller.`;
    case "sold_to_you":
      return `Sold to you${s.sale === null ? "" : ` on ${s.sale.settledAt}`}.`;
    case "sold_to_other":
      return `Sold to another account${s.sale === null ? "" : ` on ${s.sale.settledAt}`}.`;
    case "closed":
      return "The listing is closed: it is no longer for sale.";
  }
}

export interface Step {
  readonly ok: boolean;
  /** Why the step waits, in words; empty when it can be taken. */
  readonly why: string;
}

const ready: Step = { ok: true, why: "" };
const wait = (why: string): Step => ({ ok: false, why });

/** Whether paying the deposit makes sense now. */
export function canPay(s: BuyerState): Step {
  if (s.listing.state !== "active") return wait("The listing is not open to buyers.");
  if (s.intent === null || s.intent.expired) return wait("Start buying first: your intent gives the memo.");
  if (s.deposit.state === "received") return wait("The escrow is checking your payment.");
  if (s.deposit.state === "funded") return wait("The escrow already holds your deposit.");
  if (s.deposit.state === "paid_out") return wait("Your deposit already paid for the sale.");
  if (s.proposal.state !== "to_you")
    return wait("Pay once the seller's proposal to you is live: a payment before it is sent back.");
  return ready;
}

/** Whether accepting the namespace makes sense now. */
export function canAccept(s: BuyerState): Step {
  if (s.settlement.state !== "open") return wait("The sale is no longer open.");
  if (s.proposal.state !== "to_you") return wait("Accept once the seller's proposal to you is live.");
  if (s.deposit.state !== "funded") return wait("Accept once the escrow holds your deposit.");
  return ready;
}

/** Nothing more will change for this buyer without them acting: the page stops asking. */
export function isFinal(s: BuyerState): boolean {
  const { settlement, deposit } = s;
  if (settlement.state === "sold_to_other" || settlement.state === "closed") return !owedToYou(deposit);
  if (settlement.state !== "sold_to_you") return false;
  const payout = settlement.sale?.sellerPayout;
  return payout !== null && payout !== undefined && payout.state === "paid";
}

/** The escrow still owes the buyer a payout that is on its way. */
function owedToYou(d: BuyerState["deposit"]): boolean {
  return d.state === "received" || d.payouts.some((p) => p.state === "pending" || p.state === "signed");
}

/** Whether the page should ask again shortly: something is under way that the escrow or the seller finishes. */
export function isWaiting(s: BuyerState): boolean {
  if (isFinal(s)) return false;
  if (s.intent === null && s.deposit.state === "none") return false;
  return true;
}
