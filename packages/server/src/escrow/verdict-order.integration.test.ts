// A deposit paid before the registry event or console cancel that follows it is judged first, whatever the timing
// of the watcher's passes (docs/market.md "Buyer flow" and "Seller flow" 4): a watcher catching up on a backlog
// while the indexer is ahead, and a console cancel asked before the watcher judged a deposit paid while the
// proposal was live. Balances are checked on chain.
import type { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runUntilIdle } from "../../test/fixtures/demo.ts";
import { type MarketHarness, startMarketHarness, TEST_FEE_BPS, xlm } from "../../test/fixtures/market.ts";
import { bearer, signIn } from "../../test/fixtures/wallet-auth.ts";

describe("escrow verdicts in chain order", () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness("pglite");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  async function proposed(priceXlm: string) {
    const seller = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const listingId = await h.list(seller, namespace, priceXlm);
    const buyer = await h.funded();
    const minted = await h.intent(listingId, buyer.publicKey());
    expect(minted.status).toBe(200);
    await h.propose(seller, namespace, buyer.publicKey());
    return { seller, namespace, listingId, buyer, memo: minted.body.pay.memoHash as string };
  }

  const outcomes = async (who: Keypair) =>
    (await h.payouts())
      .filter((p) => p.destination === who.publicKey())
      .map((p) => [p.purpose, p.amount, p.state])
      .sort();

  it("sells to a buyer who paid and accepted while the watcher was behind the indexer", async () => {
    const { seller, namespace, listingId, buyer, memo } = await proposed("20");
    const sellerBefore = await h.balance(seller.publicKey());
    await h.pay(buyer, "20", memo);
    await h.accept(buyer, namespace);
    await runUntilIdle(h.indexer);
    // A watcher back from an outage reads its backlog a page at a time (here one transaction per pass) while the
    // indexer has already applied the acceptance.
    const catchingUp = h.watcher({ pageSize: 1, maxPages: 1 });
    for (let pass = 0; pass < 3; pass++) await catchingUp.runOnce();
    await h.sync();

    const state = (
      await h.app.inject({ url: `/v1/market/listings/${listingId}/buyers/${buyer.publicKey()}` })
    ).json();
    expect(state.listing.state).toBe("sold");
    expect(state.deposit).toMatchObject({ state: "paid_out", verdict: "accepted" });
    // 20 XLM less TEST_FEE_BPS (250), and the 10 XLM bond back.
    const fee = (xlm("20") * BigInt(TEST_FEE_BPS)) / 10_000n;
    expect(await outcomes(seller)).toEqual([
      ["bond_return", xlm("10"), "paid"],
      ["seller", xlm("20") - fee, "paid"],
    ]);
    expect(await outcomes(buyer)).toEqual([]);
    expect((await h.balance(seller.publicKey())) - sellerBefore).toBe(xlm("20") - fee + xlm("10"));
  }, 120_000);

  it("holds a deposit paid before a console cancel the watcher had not yet seen, until the registry decides", async () => {
    const { seller, namespace, listingId, buyer, memo } = await proposed("30");
    await h.pay(buyer, "30", memo);
    const token = await signIn(h.app, seller);
    const cancel = await h.app.inject({
      method: "POST",
      url: `/console/market/listings/${listingId}/cancel`,
      headers: { ...bearer(token), "x-service-namespace": namespace },
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().listing.state).toBe("cancelling");
    await h.sync();

    const held = (
      await h.app.inject({ url: `/v1/market/listings/${listingId}/buyers/${buyer.publicKey()}` })
    ).json();
    // The proposal to the buyer is still live: the deposit stays held, the bond stays posted.
    expect(held.deposit).toMatchObject({ state: "funded", heldXlm: "30.0000000" });
    expect(held.listing.state).toBe("cancelling");
    expect(await outcomes(seller)).toEqual([]);
    expect(await outcomes(buyer)).toEqual([]);

    // The seller withdraws the proposal on chain: the deposit comes back and the bond is slashed to the buyer.
    const buyerBefore = await h.balance(buyer.publicKey());
    await h.cancelProposal(seller, namespace);
    await h.sync();
    expect(await outcomes(buyer)).toEqual([
      ["refund", xlm("30"), "paid"],
      ["slash", xlm("10"), "paid"],
    ]);
    expect((await h.balance(buyer.publicKey())) - buyerBefore).toBe(xlm("40"));
  }, 120_000);
});
