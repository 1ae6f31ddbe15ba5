// The seller's steps of an open listing (docs/market.md "Seller flow") from the owner console's answer (GET
// /console/market/listings): list, pay the bond, a buyer asks, offer the namespace to them, their deposit, their
// acceptance — each done, the seller's turn, waiting on the buyer or the escrow, or later (steps.ts). Pure
// (seller-state.test.ts), so the panel only renders, and agrees with the buyer's stepper (buyer-state.ts) at each
// step.
import { amount, dateTime, percent } from "../format.ts";
import { saleFigures } from "./sale-terms.ts";
import type { StepView } from "./steps.ts";

export type SellerStepId = "list" | "bond" | "buyer" | "offer" | "deposit" | "accept";

/** An open listing as GET /console/market/listings gives it, as far as the steps depend on it. */
export interface OpenListingView {
  readonly state: "pending_bond" | "active" | "cancelling";
  readonly priceXlm: string;
  readonly feeBps: number;
  readonly bond: { readonly amountXlm: string; readonly posted: boolean };
  readonly intents: readonly { readonly buyer: string; readonly funded: boolean }[];
  readonly proposal: { readonly to: string; readonly expiresAt: string } | null;
}

/** What the seller receives from a sale at the listing's price: the price less the marketplace's fee. */
export function sellerGets(l: Pick<OpenListingView, "priceXlm" | "feeBps">): string {
  const figures = saleFigures(l.priceXlm, { feeBps: l.feeBps, bondBps: 0, bondMinXlm: 0 });
  return figures === null ? amount(l.priceXlm) : amount(figures.sellerGetsXlm);
}

/** `bondSent`: the network included the seller's bond payment, which the escrow has not seen yet. */
export function sellerSteps(
  l: OpenListingView,
  namespace: string,
  bondSent = false,
): readonly StepView<SellerStepId>[] {
  const price = amount(l.priceXlm);
  const bonded = l.state !== "pending_bond";
  const offered = l.proposal !== null;
  const to = l.proposal?.to ?? null;
  const funded = to !== null && l.intents.some((i) => i.buyer === to && i.funded);
  const asked = l.intents.length > 0 || offered;
  return [
    {
      id: "list",
      title: `List ${namespace} at ${price}`,
      status: "done",
      line: `Listed at ${price}; the marketplace keeps ${percent(l.feeBps)}, you receive ${sellerGets(l)}.`,
    },
    {
      id: "bond",
      title: `Pay the bond of ${amount(l.bond.amountXlm)}`,
      status: bonded ? "done" : bondSent ? "waiting" : "now",
      line: bonded
        ? "The escrow holds your bond: the listing is open to buyers. It comes back after the sale."
        : bondSent
          ? "The network included your bond payment: the listing opens to buyers once the escrow sees it."
          : "The listing opens to buyers once the escrow sees your bond; a second bond payment is sent back.",
    },
    {
      id: "buyer",
      title: "A buyer asks to buy",
      status: asked ? "done" : bonded ? "waiting" : "next",
      line: asked
        ? l.intents.length === 1
          ? "A buyer has asked to buy."
          : `${l.intents.length} buyers have asked to buy.`
        : bonded
          ? "Waiting for a buyer to start buying on the listing's page."
          : "Once the listing is open, buyers start on its page.",
    },
    {
      id: "offer",
      title: `Offer ${namespace} to a buyer`,
      status: offered ? "done" : asked && l.state === "active" ? "now" : "next",
      line: offered
        ? `Offered to ${to} until ${dateTime(l.proposal?.expiresAt ?? "")}.`
        : asked
          ? "Choose a buyer below and offer them the namespace."
          : "Once a buyer asks, you offer them the namespace.",
    },
    {
      id: "deposit",
      title: `The buyer pays ${price} into the escrow`,
      status: funded ? "done" : offered ? "waiting" : "next",
      line: funded
        ? "The escrow holds the buyer's deposit."
        : offered
          ? "The buyer has your offer and pays next."
          : "After your offer, the buyer pays the price into the escrow.",
    },
    {
      id: "accept",
      title: `The buyer accepts; you receive ${sellerGets(l)}`,
      status: funded ? "waiting" : "next",
      line: funded
        ? "The buyer accepts next: the escrow then pays you and returns your bond."
        : "When the buyer accepts, the escrow pays you and returns your bond.",
    },
  ];
}
