// GET /v1/market/listings/{id}/buyers/{account} through a whole sale on the devnet (SDK-signed transactions, the
// indexer and the escrow watcher run by the harness): before the mint, after it, with the proposal live, the
// deposit funded, the transfer accepted and indexed but not yet settled, and settled with the seller paid; then a
// payment made before any proposal, bounced back; a second payment bounced while the first is held; and the refusals (400 invalid_account, 404, 409 market_disabled).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runUntilIdle } from "../../../../test/fixtures/demo.ts";
import { type MarketHarness, startMarketHarness, TEST_FEE_BPS } from "../../../../test/fixtures/market.ts";

describe("a buyer's state on a listing", () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness("postgres");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  async function stateOf(listingId: string, account: string) {
    const response = await h.app.inject({ url: `/v1/market/listings/${listingId}/buyers/${account}` });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    return response.json();
  }

  it("follows one buyer from before the intent to the settled sale", async () => {
    const seller = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const listingId = await h.list(seller, namespace, "100");
    const buyer = await h.funded();
    const account = buyer.publicKey();

    const before = await stateOf(listingId, account);
    expect(before).toMatchObject({
      listing: {
        id: listingId,
        namespace,
        seller: seller.publicKey(),
        priceXlm: "100.0000000",
        state: "active",
      },
      intent: null,
      deposit: { state: "none", amountXlm: null, payouts: [] },
      proposal: { state: "none", to: null, expiresAt: null, source: "chain" },
      settlement: { state: "open", owner: seller.publicKey(), sale: null },
    });
    expect(before.listing.feeBps).toBe(TEST_FEE_BPS);

    const minted = await h.intent(listingId, account);
    expect(minted.status).toBe(200);
    const expires = await h.propose(seller, namespace, account);
    const proposed = await stateOf(listingId, account);
    expect(proposed.intent).toEqual({
      id: minted.body.intent.id,
      expiresAt: minted.body.intent.expiresAt,
      memoHash: minted.body.pay.memoHash,
      expired: false,
    });
    expect(proposed.proposal).toEqual({
      state: "to_you",
      to: account,
      expiresAt: new Date(Number(expires) * 1000).toISOString(),
      source: "chain",
    });
    // Someone else sees the same proposal as aimed at another account.
    const other = (await h.funded()).publicKey();
    expect((await stateOf(listingId, other)).proposal).toMatchObject({ state: "to_other", to: account });

    const paid = await h.pay(buyer, "100", minted.body.pay.memoHash);
    expect((await stateOf(listingId, account)).deposit.state).toBe("none");
    // The watcher reads the payment, but its verdict waits for the indexer, which has not run since.
    await h.watcher().runOnce();
    const received = await stateOf(listingId, account);
    expect(received.deposit).toMatchObject({
      state: "received",
      amountXlm: "100.0000000",
      txHash: paid.hash,
    });
    await h.sync();
    const funded = await stateOf(listingId, account);
    expect(funded.deposit).toMatchObject({
      state: "funded",
      amountXlm: "100.0000000",
      heldXlm: "100.0000000",
      verdict: "funded",
      txHash: paid.hash,
      payouts: [],
    });

    await h.accept(buyer, namespace);
    await runUntilIdle(h.indexer);
    const accepted = await stateOf(listingId, account);
    expect(accepted.settlement).toMatchObject({ state: "accepted", owner: account, sale: null });
    expect(accepted.proposal.state).toBe("none");

    await h.sync();
    const sold = await stateOf(listingId, account);
    expect(sold.listing.state).toBe("sold");
    expect(sold.deposit).toMatchObject({ state: "paid_out", heldXlm: "100.0000000", verdict: "accepted" });
    expect(sold.settlement).toMatchObject({
      state: "sold_to_you",
      owner: account,
      sale: {
        buyer: account,
        priceXlm: "100.0000000",
        // TEST_FEE_BPS (250) of 100 XLM.
        feeXlm: "2.5000000",
        sellerPayout: { purpose: "seller", destination: seller.publicKey(), amountXlm: "97.5000000" },
      },
    });
    expect(sold.settlement.sale.sellerPayout.state).toBe("paid");
    expect(sold.settlement.sale.sellerPayout.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect((await stateOf(listingId, other)).settlement.state).toBe("sold_to_other");
  }, 120_000);

  it("shows a deposit paid before any proposal as returned, with its bounce", async () => {
    const seller = await h.funded();
    const listingId = await h.list(seller, await h.namespaceFor(seller), "50");
    const buyer = await h.funded();
    const minted = await h.intent(listingId, buyer.publicKey());
    const paid = await h.pay(buyer, "50", minted.body.pay.memoHash);
    await h.sync();
    const state = await stateOf(listingId, buyer.publicKey());
    expect(state.deposit).toMatchObject({
      state: "returned",
      amountXlm: "50.0000000",
      heldXlm: null,
      verdict: "no_live_proposal",
      txHash: paid.hash,
      payouts: [
        { purpose: "bounce", destination: buyer.publicKey(), amountXlm: "50.0000000", state: "paid" },
      ],
    });
    expect(state.deposit.payouts[0].txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(state.settlement.state).toBe("open");
  }, 120_000);

  it("keeps showing the held deposit after a second payment on the same memo is bounced", async () => {
    const seller = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const listingId = await h.list(seller, namespace, "40");
    const buyer = await h.funded();
    const minted = await h.intent(listingId, buyer.publicKey());
    await h.propose(seller, namespace, buyer.publicKey());
    const first = await h.pay(buyer, "40", minted.body.pay.memoHash);
    await h.sync();
    const again = await h.pay(buyer, "40", minted.body.pay.memoHash);
    await h.sync();
    const state = await stateOf(listingId, buyer.publicKey());
    // The escrow still holds the first payment for the sale; the second went back on its own.
    expect(state.deposit).toMatchObject({
      state: "funded",
      heldXlm: "40.0000000",
      verdict: "funded",
      txHash: first.hash,
      payouts: [],
    });
    const bounced = (await h.payouts()).filter((p) => p.destination === buyer.publicKey());
    expect(bounced.map((p) => [p.purpose, p.amount, p.state])).toEqual([["bounce", 400_000_000n, "paid"]]);
    expect(bounced[0]?.paymentId.startsWith(again.hash)).toBe(true);
  }, 120_000);

  it("answers 400 invalid_account, 404 for an unknown listing", async () => {
    const seller = await h.funded();
    const listingId = await h.list(seller, await h.namespaceFor(seller), "10");
    const bad = await h.app.inject({ url: `/v1/market/listings/${listingId}/buyers/GNOTANACCOUNT` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "invalid_account" });
    const missing = await h.app.inject({
      url: `/v1/market/listings/no-such-listing/buyers/${seller.publicKey()}`,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ error: "not_found", id: "no-such-listing" });
  });
});

describe("a buyer's state with the marketplace off", () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness("postgres", { marketEnabled: false });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("answers 409 market_disabled", async () => {
    const response = await h.app.inject({
      url: `/v1/market/listings/any/buyers/${(await h.funded()).publicKey()}`,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ error: "market_disabled" });
  });
});
