// A buyer's state on a listing (GET /v1/market/listings/{id}/buyers/{account}, docs/api.md "Marketplace") in words,
// and which of the buyer's next steps make sense now (docs/market.md "Buyer flow"): pay only while the seller's
// proposal to you is live and no deposit of yours is held or being judged; accept once the escrow holds it. Pure
// functions (buyer-state.test.ts), so the panel only renders.
import type { paths } from "@namereg/client";
import { amount, dateTime, percent } from "../format.ts";
import type { StepView } from "./steps.ts";

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
  return `${what[p.purpose] ?? "Paid back to you by the escrow"}: ${amount(p.amountXlm)}, ${payoutState(p.state)}`;
}

/** An escrow payout's state in words. */
export const payoutState = (state: string): string => PAYOUT_STATES[state] ?? state;

/** The deposit as the buyer reads it. */
export function depositWords(d: BuyerState["deposit"]): string {
  switch (d.state) {
    case "none":
      return "Not paid yet.";
    case "received":
      return `Received (${amount(d.amountXlm ?? "")}); the escrow is checking it against the registry.`;
    case "funded":
      return `Held in the escrow: ${amount(d.heldXlm ?? "")}, until you accept.`;
    case "paid_out":
      return `Paid to the seller from the escrow (${amount(d.heldXlm ?? "")} less the market fee): the sale settled.`;
    case "returned":
      return `Sent back to you: ${RETURN_REASONS[d.verdict ?? ""] ?? "the escrow could not take it as your deposit"}.`;
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
      return `Live: offered to you until ${p.expiresAt === null ? "no set time" : dateTime(p.expiresAt)}${seen}.`;
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
      return `Sold to you${s.sale === null ? "" : ` on ${dateTime(s.sale.settledAt)}`}.`;
    case "sold_to_other":
      return `Sold to another account${s.sale === null ? "" : ` on ${dateTime(s.sale.settledAt)}`}.`;
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

/** The buyer's own transactions the network included: the deposit's payment (its hash), the acceptance. */
export interface Included {
  readonly deposit: string | null;
  readonly accepted: boolean;
}

export const NOTHING_INCLUDED: Included = { deposit: null, accepted: false };

/**
 * `s` with what the buyer's included transactions set, until the read says so itself: the escrow records a payment
 * and the indexer an acceptance seconds after the network included them, and meanwhile the read would offer paying
 * the deposit a second time, or accepting again.
 */
export function withIncluded(s: BuyerState, included: Included): BuyerState {
  let shown = s;
  // The payment is in the escrow's account: "received" until the escrow judges it (read: the same transaction).
  if (included.deposit !== null && s.deposit.txHash !== included.deposit)
    shown = {
      ...shown,
      deposit: {
        state: "received",
        amountXlm: s.listing.priceXlm,
        heldXlm: null,
        verdict: null,
        txHash: included.deposit,
        receivedAt: null,
        payouts: [],
      },
    };
  // accept_transfer included: the namespace is the buyer's on the registry, the escrow pays the seller next.
  if (included.accepted && s.settlement.state === "open")
    shown = { ...shown, settlement: { ...s.settlement, state: "accepted" } };
  return shown;
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

export type BuyerStepId = "request" | "proposal" | "deposit" | "accept" | "payout";

/**
 * The buyer's steps (docs/market.md "Buyer flow") with where each stands: the purchase request, the seller's offer,
 * the deposit, the acceptance, the seller's payment. Exactly one step is "now" or "waiting" until the sale is
 * settled; after it every step is done.
 */
export function buyerSteps(s: BuyerState, namespace: string): readonly StepView<BuyerStepId>[] {
  const price = amount(s.listing.priceXlm);
  const sold = s.settlement.state === "sold_to_you";
  const accepted = sold || s.settlement.state === "accepted";
  const held = accepted || s.deposit.state === "funded" || s.deposit.state === "paid_out";
  const requested = held || (s.intent !== null && !s.intent.expired);
  const offered = accepted || s.proposal.state === "to_you";
  const payout = s.settlement.sale?.sellerPayout ?? null;
  const paid = sold && payout !== null && payout.state === "paid";
  const pay = canPay(s);
  const accept = canAccept(s);

  const request: StepView<BuyerStepId> = {
    id: "request",
    title: `Ask to buy ${namespace}`,
    status: requested ? "done" : "now",
    line: requested
      ? s.intent === null || s.intent.expired
        ? "Your purchase request was taken."
        : `Your purchase request is valid until ${dateTime(s.intent.expiresAt)}.`
      : s.intent?.expired
        ? "Your purchase request expired: ask again for a fresh one."
        : "Start with a purchase request: it ties your payment to you.",
  };
  const proposal: StepView<BuyerStepId> = {
    id: "proposal",
    title: `The seller offers ${namespace} to you`,
    status: offered ? "done" : requested ? "waiting" : "next",
    line: offered
      ? accepted
        ? "The seller offered it to you."
        : proposalWords(s.proposal)
      : s.proposal.state === "to_other"
        ? "The seller has offered it to another account for now."
        : requested
          ? "The seller has your request and offers the namespace to you next."
          : "After your request, the seller offers the namespace to you.",
  };
  const deposit: StepView<BuyerStepId> = {
    id: "deposit",
    title: `Pay ${price} into the escrow`,
    status: held ? "done" : s.deposit.state === "received" ? "waiting" : pay.ok ? "now" : "next",
    line: held
      ? accepted
        ? `The escrow took your ${price}.`
        : depositWords(s.deposit)
      : s.deposit.state === "none"
        ? pay.ok
          ? "The seller's offer is live: pay now. The escrow holds it until you accept."
          : "Once the seller's offer to you is live, you pay the price into the escrow; it holds it until you accept."
        : depositWords(s.deposit),
  };
  const acceptance: StepView<BuyerStepId> = {
    id: "accept",
    title: `Accept ${namespace}`,
    status: accepted ? "done" : accept.ok ? "now" : "next",
    line: accepted
      ? `${namespace} is yours on the registry.`
      : accept.ok
        ? "The escrow holds your deposit: accept, and the namespace is yours."
        : "Once the escrow holds your deposit, you accept and the namespace is yours.",
  };
  const paidOut: StepView<BuyerStepId> = {
    id: "payout",
    title: "The escrow pays the seller",
    status: paid ? "done" : accepted ? "waiting" : "next",
    line: paid
      ? `The seller received ${amount(payout.amountXlm)}.`
      : accepted
        ? "The escrow is paying the seller from your deposit."
        : "Once you accept, the escrow pays the seller from your deposit.",
  };
  return [request, proposal, deposit, acceptance, paidOut];
}

/** What the buyer paid and to whom, once the sale settled and the seller was paid: the stepper's receipt. */
export interface Receipt {
  readonly price: string;
  readonly sellerGot: string;
  readonly fee: string;
  readonly feePercent: string;
  readonly settledAt: string;
  readonly depositTx: string | null;
  readonly payoutTx: string | null;
}

export function receipt(s: BuyerState): Receipt | null {
  const sale = s.settlement.sale;
  const payout = sale?.sellerPayout ?? null;
  if (s.settlement.state !== "sold_to_you" || sale === null || payout === null || payout.state !== "paid")
    return null;
  return {
    price: amount(sale.priceXlm),
    sellerGot: amount(payout.amountXlm),
    fee: amount(sale.feeXlm),
    feePercent: percent(s.listing.feeBps),
    settledAt: sale.settledAt,
    depositTx: s.deposit.txHash,
    payoutTx: payout.txHash,
  };
}
