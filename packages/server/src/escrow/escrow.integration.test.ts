// docs/market.md "Buyer flow", one test per rule, through the public routes and real signed transactions on the devnet; every
// money outcome is checked as balances on chain, not only as rows. The escrow watcher runs in-process here; the
// crash test (escrow-crash.integration.test.ts) kills it as a process.
import { namespaceNode } from "@namereg/protocol";
import type { Keypair } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runUntilIdle } from "../../test/fixtures/demo.ts";
import {
  type MarketHarness,
  payoutsOf,
  startMarketHarness,
  TEST_FEE_BPS,
  xlm,
} from "../../test/fixtures/market.ts";
import { readChanges } from "../db/outbox.ts";
import { marketListings, marketPayments } from "../db/tables.ts";

const PRICE = "100";
const BOND = xlm("10"); // max(10% of 100, 10 XLM)

describe("the marketplace deposit intent (docs/market.md) on the devnet", () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness("postgres");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** A seller with a fresh namespace listed at PRICE (bond posted), and a funded buyer. */
  async function listed(): Promise<{
    seller: Keypair;
    buyer: Keypair;
    namespace: string;
    listingId: string;
  }> {
    const seller = await h.funded();
    const buyer = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const listingId = await h.list(seller, namespace, PRICE);
    return { seller, buyer, namespace, listingId };
  }
  async function memoFor(listingId: string, buyer: Keypair): Promise<string> {
    const { status, body } = await h.intent(listingId, buyer.publicKey());
    expect(status).toBe(200);
    return body.pay.memoHash;
  }
  /** Balance change of `account` across `action`. */
  async function delta(account: string, action: () => Promise<unknown>): Promise<bigint> {
    const before = await h.balance(account);
    await action();
    return (await h.balance(account)) - before;
  }
  async function paymentState(hash: string) {
    const rows = await h.database.db.select().from(marketPayments).where(eq(marketPayments.txHash, hash));
    return rows[0]?.state;
  }

  it("lists: the bond turns the listing active and it is listed with the fields of 2.8", async () => {
    const { namespace, listingId } = await listed();
    const response = await h.app.inject({ url: "/v1/market/listings" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.escrow).toBe(h.escrow.publicKey());
    const listing = body.listings.find((l: { id: string }) => l.id === listingId);
    expect(listing).toMatchObject({
      namespace,
      node: namespaceNode(namespace),
      priceXlm: "100.0000000",
      feeBps: TEST_FEE_BPS,
    });
    expect(Number.isNaN(Date.parse(listing.listedAt))).toBe(false);
    // Announced once, with the bond payment as the chain fact behind it (docs/webhooks.md).
    const [row] = await h.database.db.select().from(marketListings).where(eq(marketListings.id, listingId));
    const [bond] = await h.database.db
      .select()
      .from(marketPayments)
      .where(eq(marketPayments.id, row?.bondPayment ?? ""));
    expect(await readChanges(h.database.db, 0, 1000, { namespace, types: ["market.listed"] })).toMatchObject([
      {
        node: namespaceNode(namespace),
        ledger: bond?.ledger,
        txHash: bond?.txHash,
        eventId: bond?.id,
        data: { listingId, seller: row?.seller, priceXlm: "100.0000000" },
      },
    ]);
  });

  it("mint intent: a new hash memo valid 24 hours, with the settlement steps", async () => {
    const { seller, buyer, namespace, listingId } = await listed();
    const before = Date.now();
    const { status, body } = await h.intent(listingId, buyer.publicKey());
    expect(status).toBe(200);
    expect(body.pay).toMatchObject({
      to: h.escrow.publicKey(),
      asset: "native",
      amountXlm: "100.0000000",
      memoType: "hash",
    });
    expect(body.pay.memoHash).toMatch(/^[0-9a-f]{64}$/);
    const lifetime = Date.parse(body.intent.expiresAt) - before;
    expect(lifetime).toBeGreaterThan(24 * 3_600_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3_600_000 + 1000);
    expect(body.settlement).toMatchObject({ node: namespaceNode(namespace), seller: seller.publicKey() });
    expect(body.settlement.steps).toHaveLength(3);
  });

  it("mint again, unexpired: the same intent; expired: rotated to a fresh memo", async () => {
    const { buyer, listingId } = await listed();
    const first = await h.intent(listingId, buyer.publicKey());
    const again = await h.intent(listingId, buyer.publicKey());
    expect(again.body.intent).toEqual(first.body.intent);
    expect(again.body.pay.memoHash).toBe(first.body.pay.memoHash);
    h.clock.offsetMs = 24 * 3_600_000 + 1000;
    try {
      const rotated = await h.intent(listingId, buyer.publicKey());
      expect(rotated.status).toBe(200);
      expect(rotated.body.intent.id).not.toBe(first.body.intent.id);
      expect(rotated.body.pay.memoHash).not.toBe(first.body.pay.memoHash);
    } finally {
      h.clock.offsetMs = 0;
    }
  });

  it("mint on a listing that is not active: 409 listing_not_active; a bad account: 400 invalid_account", async () => {
    const seller = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const token = await (await import("../../test/fixtures/wallet-auth.ts")).signIn(h.app, seller);
    const created = await h.app.inject({
      method: "POST",
      url: "/console/market/listings",
      headers: { authorization: `Bearer ${token}`, "x-service-namespace": namespace },
      payload: { namespace, priceXlm: PRICE },
    });
    expect(created.statusCode).toBe(201);
    const pendingId = created.json().listing.id;
    const pending = await h.intent(pendingId, seller.publicKey());
    expect(pending.status).toBe(409);
    expect(pending.body.error).toBe("listing_not_active");
    expect((await h.intent("no-such-listing", seller.publicKey())).body.error).toBe("listing_not_active");
    const bad = await h.intent(pendingId, "GABC");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe("invalid_account");
  });

  it("proposal live + exact payment → funded; buyer accepts → seller paid the price minus the fee, bond back", async () => {
    const { seller, buyer, namespace, listingId } = await listed();
    const memo = await memoFor(listingId, buyer);
    await h.propose(seller, namespace, buyer.publicKey());
    const escrowBefore = await h.balance(h.escrow.publicKey());
    const paid = await h.pay(buyer, PRICE, memo);
    await h.sync();
    expect(await paymentState(paid.hash)).toBe("funded");
    expect((await h.balance(h.escrow.publicKey())) - escrowBefore).toBe(xlm(PRICE));
    expect(await payoutsOf(h, paid.hash)).toEqual([]);

    await h.accept(buyer, namespace);
    const fee = (xlm(PRICE) * BigInt(TEST_FEE_BPS)) / 10_000n;
    const sellerGain = await delta(seller.publicKey(), () => h.sync());
    expect(sellerGain).toBe(xlm(PRICE) - fee + BOND);
    expect(await paymentState(paid.hash)).toBe("settled");
    const history = await h.app.inject({ url: `/v1/market/history/${namespaceNode(namespace)}` });
    expect(history.statusCode).toBe(200);
    expect(history.json().sales).toEqual([
      expect.objectContaining({
        namespace,
        priceXlm: "100.0000000",
        seller: seller.publicKey(),
        buyer: buyer.publicKey(),
        badge: "escrow",
      }),
    ]);
    const [listing] = await h.database.db
      .select()
      .from(marketListings)
      .where(eq(marketListings.id, listingId));
    expect(listing?.state).toBe("sold");
    // Announced once, with the buyer's acceptance on the registry as the chain fact behind it.
    const sold = await readChanges(h.database.db, 0, 1000, { namespace, types: ["market.sold"] });
    const [transferred] = await readChanges(h.database.db, 0, 1000, {
      namespace,
      types: ["namespace.transferred"],
    });
    expect(sold).toMatchObject([
      {
        node: namespaceNode(namespace),
        eventId: transferred?.eventId,
        txHash: transferred?.txHash,
        ledger: transferred?.ledger,
        data: { listingId, seller: seller.publicKey(), buyer: buyer.publicKey(), priceXlm: "100.0000000" },
      },
    ]);
    expect(transferred?.data).toEqual({ from: seller.publicKey(), to: buyer.publicKey() });
  });

  for (const variant of ["cancels", "re-aims the proposal", "sells elsewhere"] as const) {
    it(`seller ${variant} while funded → deposit refunded in full, bond slashed to the buyer`, async () => {
      const { seller, buyer, namespace, listingId } = await listed();
      const memo = await memoFor(listingId, buyer);
      await h.propose(seller, namespace, buyer.publicKey());
      const paid = await h.pay(buyer, PRICE, memo);
      await h.sync();
      expect(await paymentState(paid.hash)).toBe("funded");
      if (variant === "cancels") await h.cancelProposal(seller, namespace);
      else {
        const other = await h.funded();
        await h.propose(seller, namespace, other.publicKey());
        if (variant === "sells elsewhere") await h.accept(other, namespace);
      }
      const sellerBefore = await h.balance(seller.publicKey());
      const buyerGain = await delta(buyer.publicKey(), () => h.sync());
      expect(buyerGain).toBe(xlm(PRICE) + BOND);
      expect(await h.balance(seller.publicKey())).toBe(sellerBefore);
      expect(await paymentState(paid.hash)).toBe("returned");
    });
  }

  it("live offer expires unaccepted → deposit refunded in full, seller keeps the bond (listing stays)", async () => {
    const { seller, buyer, namespace, listingId } = await listed();
    const memo = await memoFor(listingId, buyer);
    // Short: the chain clock jumps past it, and wallets' transactions are time-bounded by the wall clock.
    const expires = await h.propose(seller, namespace, buyer.publicKey(), 30);
    const paid = await h.pay(buyer, PRICE, memo);
    await h.sync();
    expect(await paymentState(paid.hash)).toBe("funded");
    h.closeLedgerAt(expires + 1n);
    const buyerGain = await delta(buyer.publicKey(), () => h.sync());
    expect(buyerGain).toBe(xlm(PRICE));
    const [listing] = await h.database.db
      .select()
      .from(marketListings)
      .where(eq(marketListings.id, listingId));
    expect(listing?.state).toBe("active");
    const bond = await h.database.db
      .select()
      .from(marketPayments)
      .where(eq(marketPayments.id, listing?.bondPayment ?? ""));
    expect(bond[0]?.state).toBe("bond");
  });

  it("payments below the price are each refunded; partial payments never accumulate", async () => {
    const { seller, buyer, namespace, listingId } = await listed();
    const memo = await memoFor(listingId, buyer);
    await h.propose(seller, namespace, buyer.publicKey());
    const first = await h.pay(buyer, "60", memo);
    const second = await h.pay(buyer, "40", memo);
    const gain = await delta(buyer.publicKey(), () => h.sync());
    expect(gain).toBe(xlm("100"));
    expect(await paymentState(first.hash)).toBe("returned");
    expect(await paymentState(second.hash)).toBe("returned");
    expect((await payoutsOf(h, first.hash)).map((p) => [p.purpose, p.amount, p.state])).toEqual([
      ["refund", xlm("60"), "paid"],
    ]);
  });

  it("payment above the price → funded at the price, the surplus refunded to the sender", async () => {
    const { seller, buyer, namespace, listingId } = await listed();
    const memo = await memoFor(listingId, buyer);
    await h.propose(seller, namespace, buyer.publicKey());
    const before = await h.balance(h.escrow.publicKey());
    const paid = await h.pay(buyer, "130", memo);
    const gain = await delta(buyer.publicKey(), () => h.sync());
    expect(gain).toBe(xlm("30"));
    expect(await paymentState(paid.hash)).toBe("funded");
    // The escrow keeps the price, less the network fee of the surplus payout it paid.
    expect((await h.balance(h.escrow.publicKey())) - before).toBe(xlm(PRICE) - 100n);
  });

  it("payment before a proposal to the buyer is live → bounced back", async () => {
    const { seller, buyer, namespace, listingId } = await listed();
    const memo = await memoFor(listingId, buyer);
    const early = await h.pay(buyer, PRICE, memo);
    expect(await delta(buyer.publicKey(), () => h.sync())).toBe(xlm(PRICE));
    expect(await paymentState(early.hash)).toBe("returned");
    // A proposal to someone else does not make it live for this buyer either.
    const other = await h.funded();
    await h.propose(seller, namespace, other.publicKey());
    const misaimed = await h.pay(buyer, PRICE, memo);
    expect(await delta(buyer.publicKey(), () => h.sync())).toBe(xlm(PRICE));
    expect(await paymentState(misaimed.hash)).toBe("returned");
  });

  it("a slash is not taken while the indexer is behind the deciding event", async () => {
    const { seller, buyer, namespace, listingId } = await listed();
    const memo = await memoFor(listingId, buyer);
    await h.propose(seller, namespace, buyer.publicKey());
    const paid = await h.pay(buyer, PRICE, memo);
    await h.sync();
    expect(await paymentState(paid.hash)).toBe("funded");
    await h.cancelProposal(seller, namespace);
    // The watcher runs, the indexer does not: the cancel is on chain but not in the caught-up view.
    const watcher = h.watcher();
    const buyerBefore = await h.balance(buyer.publicKey());
    for (let i = 0; i < 3; i++) await watcher.runOnce();
    expect(await h.balance(buyer.publicKey())).toBe(buyerBefore);
    expect(await paymentState(paid.hash)).toBe("funded");
    expect(await payoutsOf(h, paid.hash)).toEqual([]);
    await runUntilIdle(h.indexer);
    await watcher.runOnce();
    expect((await h.balance(buyer.publicKey())) - buyerBefore).toBe(xlm(PRICE) + BOND);
  });

  it("seller cancels the listing in the console: bond back without a deposit; with one, refund + slash once the proposal ends on chain", async () => {
    const { seller, namespace, listingId } = await listed();
    const token = await (await import("../../test/fixtures/wallet-auth.ts")).signIn(h.app, seller);
    const cancel = (id: string, ns: string, t: string) =>
      h.app.inject({
        method: "POST",
        url: `/console/market/listings/${id}/cancel`,
        headers: { authorization: `Bearer ${t}`, "x-service-namespace": ns },
      });
    const response = await cancel(listingId, namespace, token);
    expect(response.statusCode).toBe(200);
    expect(await delta(seller.publicKey(), () => h.sync())).toBe(BOND);
    expect(
      (await h.app.inject({ url: "/v1/market/listings" })).json().listings.map((l: { id: string }) => l.id),
    ).not.toContain(listingId);

    const second = await listed();
    const memo = await memoFor(second.listingId, second.buyer);
    await h.propose(second.seller, second.namespace, second.buyer.publicKey());
    await h.pay(second.buyer, PRICE, memo);
    await h.sync();
    const token2 = await (await import("../../test/fixtures/wallet-auth.ts")).signIn(h.app, second.seller);
    expect((await cancel(second.listingId, second.namespace, token2)).statusCode).toBe(200);
    h.devnet.closeLedger();
    // The proposal to the buyer is still live on chain: the buyer could accept it, so nothing is refunded yet.
    expect(await delta(second.buyer.publicKey(), () => h.sync())).toBe(0n);
    await h.cancelProposal(second.seller, second.namespace);
    expect(await delta(second.buyer.publicKey(), () => h.sync())).toBe(xlm(PRICE) + BOND);
  });

  it("a buyer who accepts after the seller's console cancel gets the namespace and pays: a sale, no refund", async () => {
    const { seller, buyer, namespace, listingId } = await listed();
    const memo = await memoFor(listingId, buyer);
    await h.propose(seller, namespace, buyer.publicKey());
    await h.pay(buyer, PRICE, memo);
    await h.sync();
    const token = await (await import("../../test/fixtures/wallet-auth.ts")).signIn(h.app, seller);
    const cancelled = await h.app.inject({
      method: "POST",
      url: `/console/market/listings/${listingId}/cancel`,
      headers: { authorization: `Bearer ${token}`, "x-service-namespace": namespace },
    });
    expect(cancelled.statusCode).toBe(200);
    h.devnet.closeLedger();
    await h.sync();
    await h.accept(buyer, namespace);
    const buyerBefore = await h.balance(buyer.publicKey());
    const fee = (xlm(PRICE) * BigInt(TEST_FEE_BPS)) / 10_000n;
    // The sale stands as the chain says: the seller is paid the price less the fee, with the bond back...
    expect(await delta(seller.publicKey(), () => h.sync())).toBe(xlm(PRICE) - fee + BOND);
    // ...and the buyer, who has the namespace, gets nothing back.
    expect(await h.balance(buyer.publicKey())).toBe(buyerBefore);
    const payouts = await h.payouts();
    expect(payouts.filter((p) => p.destination === buyer.publicKey())).toEqual([]);
  });

  for (const point of ["signed", "sent"] as const) {
    it(`a crash after the envelope is ${point} re-uses that envelope: the refund is paid once`, async () => {
      const { buyer, listingId } = await listed();
      const memo = await memoFor(listingId, buyer);
      const early = await h.pay(buyer, PRICE, memo);
      await runUntilIdle(h.indexer);
      const crashing = h.watcher({
        checkpoint: async (at) => {
          if (at === point) throw new Error(`crash at ${at}`);
        },
      });
      const before = await h.balance(buyer.publicKey());
      await expect(crashing.runOnce()).rejects.toThrow(`crash at ${point}`);
      const [stored] = await payoutsOf(h, early.hash);
      expect(stored?.state).toBe("signed");
      const hash = stored?.txHash;
      h.devnet.closeLedger();
      await h.sync();
      const [after] = await payoutsOf(h, early.hash);
      expect(after).toMatchObject({ state: "paid", txHash: hash });
      expect((await h.balance(buyer.publicKey())) - before).toBe(xlm(PRICE));
    });
  }

  it("history: 400 invalid_node unless 64 hex; the Escrow watcher component reports its cursor and parked payouts", async () => {
    const bad = await h.app.inject({ url: "/v1/market/history/abc" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe("invalid_node");
    const status = (await h.app.inject({ url: "/v1/status" })).json();
    const escrow = status.components.find((c: { name: string }) => c.name === "Escrow watcher");
    expect(escrow).toMatchObject({ state: "operational", parkedPayouts: 0 });
    expect(escrow.cursorAgeSeconds).toBeGreaterThanOrEqual(0);
  });
});

describe("the marketplace switched off", () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness("postgres", { marketEnabled: false });
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("answers 409 market_disabled on every marketplace route", async () => {
    for (const [method, url, payload] of [
      ["GET", "/v1/market/listings", undefined],
      ["POST", "/v1/market/listings/x/intent", { account: "bad" }],
      ["GET", "/v1/market/history/zz", undefined],
    ] as const) {
      const response = await h.app.inject({ method, url, ...(payload === undefined ? {} : { payload }) });
      expect(response.statusCode).toBe(409);
      expect(response.json().error).toBe("market_disabled");
    }
    const status = (await h.app.inject({ url: "/v1/status" })).json();
    expect(status.components.map((c: { name: string }) => c.name)).not.toContain("Escrow watcher");
  });
});
