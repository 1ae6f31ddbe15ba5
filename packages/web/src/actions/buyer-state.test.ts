// A buyer's state in words, and when paying and accepting are offered.
import { describe, expect, it } from "vitest";
import { dateTime } from "../format.ts";
import {
  type BuyerState,
  buyerSteps,
  canAccept,
  canPay,
  depositWords,
  isFinal,
  isWaiting,
  NOTHING_INCLUDED,
  payoutTerm,
  proposalWords,
  receipt,
  settlementWords,
  withIncluded,
} from "./buyer-state.ts";

const BUYER = "GBUYER";

function state(over: {
  intent?: BuyerState["intent"];
  deposit?: Partial<BuyerState["deposit"]>;
  proposal?: Partial<BuyerState["proposal"]>;
  settlement?: Partial<BuyerState["settlement"]>;
  listingState?: BuyerState["listing"]["state"];
}): BuyerState {
  return {
    listing: {
      id: "l1",
      namespace: "forsale",
      node: "ab".repeat(32),
      seller: "GSELLER",
      priceXlm: "500.0000000",
      feeBps: 250,
      state: over.listingState ?? "active",
    },
    intent:
      over.intent === undefined
        ? { id: "i1", expiresAt: "2026-01-02T00:00:00.000Z", memoHash: "cd".repeat(32), expired: false }
        : over.intent,
    deposit: {
      state: "none",
      amountXlm: null,
      heldXlm: null,
      verdict: null,
      txHash: null,
      receivedAt: null,
      payouts: [],
      ...over.deposit,
    },
    proposal: { state: "none", to: null, expiresAt: null, source: "chain", ...over.proposal },
    settlement: { state: "open", owner: "GSELLER", sale: null, ...over.settlement },
  };
}

const live = { state: "to_you", to: BUYER, expiresAt: "2026-01-02T00:00:00.000Z" } as const;

describe("a buyer's next steps", () => {
  it("offers paying only while the proposal to the buyer is live and no deposit of theirs is held", () => {
    expect(canPay(state({}))).toEqual({
      ok: false,
      why: "Pay once the seller's proposal to you is live: a payment before it is sent back.",
    });
    expect(canPay(state({ proposal: live }))).toEqual({ ok: true, why: "" });
    expect(canPay(state({ intent: null, proposal: live })).ok).toBe(false);
    expect(canPay(state({ proposal: live, deposit: { state: "received" } })).why).toBe(
      "The escrow is checking your payment.",
    );
    expect(canPay(state({ proposal: live, deposit: { state: "funded" } })).ok).toBe(false);
    // A deposit sent back may be paid again.
    expect(canPay(state({ proposal: live, deposit: { state: "returned", verdict: "below_price" } })).ok).toBe(
      true,
    );
    expect(canPay(state({ proposal: live, listingState: "cancelling" })).ok).toBe(false);
  });

  it("offers accepting once the escrow holds the deposit and the proposal is live", () => {
    expect(canAccept(state({ proposal: live })).why).toBe("Accept once the escrow holds your deposit.");
    expect(canAccept(state({ deposit: { state: "funded" } })).why).toBe(
      "Accept once the seller's proposal to you is live.",
    );
    expect(canAccept(state({ proposal: live, deposit: { state: "funded" } }))).toEqual({ ok: true, why: "" });
    expect(
      canAccept(state({ proposal: live, deposit: { state: "funded" }, settlement: { state: "accepted" } }))
        .ok,
    ).toBe(false);
  });
});

describe("a buyer's state in words", () => {
  it("says what happened to the deposit, and why it came back", () => {
    expect(depositWords(state({}).deposit)).toBe("Not paid yet.");
    expect(depositWords(state({ deposit: { state: "funded", heldXlm: "500.0000000" } }).deposit)).toBe(
      "Held in the escrow: 500 XLM, until you accept.",
    );
    expect(depositWords(state({ deposit: { state: "returned", verdict: "no_live_proposal" } }).deposit)).toBe(
      "Sent back to you: it arrived before the seller's proposal to you was live.",
    );
    expect(depositWords(state({ deposit: { state: "returned", verdict: "something_new" } }).deposit)).toBe(
      "Sent back to you: the escrow could not take it as your deposit.",
    );
  });

  it("names the payouts of the deposit, leaving the seller's to the sale", () => {
    const payout = { destination: BUYER, amountXlm: "5.0000000", txHash: null } as const;
    expect(payoutTerm({ ...payout, purpose: "surplus", state: "paid" })).toBe(
      "Surplus back to you: 5 XLM, paid",
    );
    expect(payoutTerm({ ...payout, purpose: "bounce", state: "pending" })).toBe(
      "Sent back to you: 5 XLM, being sent",
    );
    expect(payoutTerm({ ...payout, purpose: "seller", state: "paid" })).toBeNull();
  });

  it("says whom the proposal is for, and when it was read from the mirror", () => {
    expect(proposalWords(state({ proposal: live }).proposal)).toBe(
      `Live: offered to you until ${dateTime("2026-01-02T00:00:00.000Z")}.`,
    );
    expect(
      proposalWords(state({ proposal: { state: "to_other", to: "GX", source: "mirror" } }).proposal),
    ).toBe("Proposed to another account (as last indexed: the chain could not be read just now).");
  });

  it("says how the sale stands", () => {
    expect(settlementWords(state({ settlement: { state: "accepted" } }).settlement, "forsale")).toBe(
      "You accepted: forsale is yours on the registry; the escrow is paying the seller.",
    );
  });
});

describe("when the page stops asking", () => {
  const sale = (payoutState: "pending" | "paid") => ({
    buyer: BUYER,
    priceXlm: "500.0000000",
    feeXlm: "12.5000000",
    settledAt: "2026-01-01T00:00:00.000Z",
    sellerPayout: {
      purpose: "seller",
      destination: "GSELLER",
      amountXlm: "487.5000000",
      state: payoutState,
      txHash: payoutState === "paid" ? "ef".repeat(32) : null,
    },
  });

  it("keeps asking until the seller is paid, and not before the buyer has started", () => {
    expect(isWaiting(state({ intent: null }))).toBe(false);
    expect(isWaiting(state({}))).toBe(true);
    const settling = state({ settlement: { state: "sold_to_you", sale: sale("pending") } });
    expect(isFinal(settling)).toBe(false);
    expect(isWaiting(settling)).toBe(true);
    const done = state({ settlement: { state: "sold_to_you", sale: sale("paid") } });
    expect(isFinal(done)).toBe(true);
    expect(isWaiting(done)).toBe(false);
  });
});

describe("the buyer's stepper", () => {
  const sale = (payoutState: "pending" | "paid") => ({
    buyer: BUYER,
    priceXlm: "500.0000000",
    feeXlm: "12.5000000",
    settledAt: "2026-01-01T00:00:00.000Z",
    sellerPayout: {
      purpose: "seller",
      destination: "GSELLER",
      amountXlm: "487.5000000",
      state: payoutState,
      txHash: payoutState === "paid" ? "ef".repeat(32) : null,
    },
  });
  const statuses = (s: BuyerState) => buyerSteps(s, "forsale").map((step) => `${step.id}:${step.status}`);

  it("has the buyer ask first, then waits on the seller's offer", () => {
    expect(statuses(state({ intent: null }))).toEqual([
      "request:now",
      "proposal:next",
      "deposit:next",
      "accept:next",
      "payout:next",
    ]);
    expect(statuses(state({}))).toEqual([
      "request:done",
      "proposal:waiting",
      "deposit:next",
      "accept:next",
      "payout:next",
    ]);
  });

  it("makes paying the buyer's turn once the offer is live, then waits on the escrow's check", () => {
    const steps = buyerSteps(state({ proposal: live }), "forsale");
    expect(steps.map((s) => s.status)).toEqual(["done", "done", "now", "next", "next"]);
    expect(steps[2]?.title).toBe("Pay 500 XLM into the escrow");
    expect(steps[3]?.line).toBe("Once the escrow holds your deposit, you accept and the namespace is yours.");
    expect(
      statuses(state({ proposal: live, deposit: { state: "received", amountXlm: "500.0000000" } })),
    ).toEqual(["request:done", "proposal:done", "deposit:waiting", "accept:next", "payout:next"]);
  });

  it("makes accepting the buyer's turn once the escrow holds the deposit", () => {
    expect(statuses(state({ proposal: live, deposit: { state: "funded", heldXlm: "500.0000000" } }))).toEqual(
      ["request:done", "proposal:done", "deposit:done", "accept:now", "payout:next"],
    );
  });

  it("after the acceptance waits on the escrow paying the seller, whatever the proposal now reads", () => {
    // The registry's proposal is gone once accepted: the offer step stays done, never "Not yet".
    const accepted = state({
      deposit: { state: "funded", heldXlm: "500.0000000" },
      settlement: { state: "accepted" },
    });
    expect(statuses(accepted)).toEqual([
      "request:done",
      "proposal:done",
      "deposit:done",
      "accept:done",
      "payout:waiting",
    ]);
    const settling = state({
      deposit: { state: "paid_out" },
      settlement: { state: "sold_to_you", sale: sale("pending") },
    });
    expect(statuses(settling).at(-1)).toBe("payout:waiting");
    expect(receipt(settling)).toBeNull();
  });

  it("is all done after the sale, and its receipt says what was paid to whom", () => {
    const sold = state({
      intent: { id: "i1", expiresAt: "2026-01-02T00:00:00.000Z", memoHash: "cd".repeat(32), expired: true },
      deposit: { state: "paid_out", heldXlm: "500.0000000", txHash: "aa".repeat(32) },
      settlement: { state: "sold_to_you", sale: sale("paid") },
      listingState: "sold",
    });
    expect(buyerSteps(sold, "forsale").map((s) => s.status)).toEqual([
      "done",
      "done",
      "done",
      "done",
      "done",
    ]);
    expect(buyerSteps(sold, "forsale").at(-1)?.line).toBe("The seller received 487.5 XLM.");
    expect(receipt(sold)).toEqual({
      price: "500 XLM",
      sellerGot: "487.5 XLM",
      fee: "12.5 XLM",
      feePercent: "2.5 %",
      settledAt: "2026-01-01T00:00:00.000Z",
      depositTx: "aa".repeat(32),
      payoutTx: "ef".repeat(32),
    });
  });
});

describe("what the buyer's included transactions set, before the read says so", () => {
  const PAID = "aa".repeat(32);
  const offered = state({ proposal: live });

  it("shows a deposit the network included as received, not to be paid again, until the escrow records it", () => {
    const shown = withIncluded(offered, { ...NOTHING_INCLUDED, deposit: PAID });
    expect(shown.deposit).toMatchObject({ state: "received", amountXlm: "500.0000000", txHash: PAID });
    expect(canPay(shown).why).toBe("The escrow is checking your payment.");
    expect(buyerSteps(shown, "forsale")[2]?.status).toBe("waiting");
    // An earlier deposit sent back is not the one just paid.
    const earlier = state({
      proposal: live,
      deposit: { state: "returned", verdict: "no_live_proposal", txHash: "bb".repeat(32) },
    });
    expect(withIncluded(earlier, { ...NOTHING_INCLUDED, deposit: PAID }).deposit.state).toBe("received");
    // Once the escrow has it, its verdict is what is shown, whatever it is.
    const funded = state({ proposal: live, deposit: { state: "funded", txHash: PAID } });
    expect(withIncluded(funded, { ...NOTHING_INCLUDED, deposit: PAID })).toBe(funded);
    const returned = state({
      proposal: live,
      deposit: { state: "returned", verdict: "below_price", txHash: PAID },
    });
    expect(withIncluded(returned, { ...NOTHING_INCLUDED, deposit: PAID })).toBe(returned);
  });

  it("shows an acceptance the network included as accepted until the indexer has it", () => {
    const held = state({ proposal: live, deposit: { state: "funded", txHash: PAID } });
    // The registry no longer holds the proposal: the live read says none, the indexed owner is still the seller.
    const read = {
      ...held,
      proposal: { ...held.proposal, state: "none" as const, to: null, expiresAt: null },
    };
    const shown = withIncluded(read, { deposit: PAID, accepted: true });
    expect(shown.settlement.state).toBe("accepted");
    expect(canAccept(shown).ok).toBe(false);
    expect(buyerSteps(shown, "forsale").map((s) => s.status)).toEqual([
      "done",
      "done",
      "done",
      "done",
      "waiting",
    ]);
    const sold = state({
      deposit: { state: "paid_out", txHash: PAID },
      settlement: { state: "sold_to_you" },
    });
    expect(withIncluded(sold, { deposit: PAID, accepted: true })).toBe(sold);
  });

  it("leaves a read alone when nothing was included", () => {
    expect(withIncluded(offered, NOTHING_INCLUDED)).toBe(offered);
  });
});
