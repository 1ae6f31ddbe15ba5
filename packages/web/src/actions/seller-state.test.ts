// The seller's stepper, step by step, agreeing with the buyer's (buyer-state.test.ts).
import { describe, expect, it } from "vitest";
import { type OpenListingView, sellerGets, sellerSteps } from "./seller-state.ts";

const BUYER = `GB${"B".repeat(54)}`;
const listing = (over: Partial<OpenListingView>): OpenListingView => ({
  state: "active",
  priceXlm: "500.0000000",
  feeBps: 250,
  bond: { amountXlm: "50.0000000", posted: true },
  intents: [],
  proposal: null,
  ...over,
});
const statuses = (l: OpenListingView) => sellerSteps(l, "forsale").map((s) => `${s.id}:${s.status}`);

describe("the seller's stepper", () => {
  it("asks for the bond first, in words and whole amounts", () => {
    const pending = listing({ state: "pending_bond", bond: { amountXlm: "50.0000000", posted: false } });
    expect(statuses(pending)).toEqual([
      "list:done",
      "bond:now",
      "buyer:next",
      "offer:next",
      "deposit:next",
      "accept:next",
    ]);
    const steps = sellerSteps(pending, "forsale");
    expect(steps[0]?.line).toBe("Listed at 500 XLM; the marketplace keeps 2.5 %, you receive 487.5 XLM.");
    expect(steps[1]?.title).toBe("Pay the bond of 50 XLM");
  });

  it("waits on the escrow once the network included the bond payment, without asking for a second one", () => {
    const pending = listing({ state: "pending_bond", bond: { amountXlm: "50.0000000", posted: false } });
    const bond = sellerSteps(pending, "forsale", true)[1];
    expect(bond?.status).toBe("waiting");
    expect(bond?.line).toBe(
      "The network included your bond payment: the listing opens to buyers once the escrow sees it.",
    );
    // Seen by the escrow: done, whatever was sent.
    expect(sellerSteps(listing({}), "forsale", true)[1]?.status).toBe("done");
  });

  it("waits on a buyer, then makes the offer the seller's turn", () => {
    expect(statuses(listing({})).slice(2)).toEqual([
      "buyer:waiting",
      "offer:next",
      "deposit:next",
      "accept:next",
    ]);
    expect(statuses(listing({ intents: [{ buyer: BUYER, funded: false }] })).slice(2)).toEqual([
      "buyer:done",
      "offer:now",
      "deposit:next",
      "accept:next",
    ]);
  });

  it("waits on the buyer's deposit after the offer, then on their acceptance", () => {
    const offered = listing({
      intents: [{ buyer: BUYER, funded: false }],
      proposal: { to: BUYER, expiresAt: "2026-12-02T14:28:00.000Z" },
    });
    expect(statuses(offered).slice(3)).toEqual(["offer:done", "deposit:waiting", "accept:next"]);
    const funded = listing({
      intents: [{ buyer: BUYER, funded: true }],
      proposal: { to: BUYER, expiresAt: "2026-12-02T14:28:00.000Z" },
    });
    expect(statuses(funded).slice(3)).toEqual(["offer:done", "deposit:done", "accept:waiting"]);
    expect(sellerSteps(funded, "forsale").at(-1)?.title).toBe("The buyer accepts; you receive 487.5 XLM");
  });

  it("says what the seller receives: the price less the fee", () => {
    expect(sellerGets({ priceXlm: "250.0000000", feeBps: 250 })).toBe("243.75 XLM");
  });
});
