// A listing whose namespace has moved on chain is closed to buyers at once (docs/market.md, "Listing lifecycle"):
// intent minting reads the owner live, so it refuses before the indexer or the escrow watcher know of the sale,
// and the public list judges listings from the indexer's mirror, so a sale leaves it as soon as it is indexed.
// Everything on the devnet with SDK-signed transactions; the escrow watcher is deliberately not run after the
// sale, so the listing row still says `active` throughout.
import { Keypair } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runUntilIdle } from "../../../../test/fixtures/demo.ts";
import { freePort } from "../../../../test/fixtures/free-port.ts";
import { type MarketHarness, startMarketHarness } from "../../../../test/fixtures/market.ts";
import { ChainClient } from "../../../chain/chain-client.ts";
import { marketIntents, marketListings } from "../../../db/tables.ts";
import { buildApp } from "../../app.ts";

describe("a sold listing on the devnet", () => {
  let h: MarketHarness;
  beforeAll(async () => {
    h = await startMarketHarness("pglite");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  /** A fresh namespace listed by a fresh seller (bond posted, listing active, everything indexed). */
  async function listed() {
    const seller = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const listingId = await h.list(seller, namespace, "100");
    return { seller, namespace, listingId };
  }
  async function listedIds(): Promise<string[]> {
    const response = await h.app.inject({ url: "/v1/market/listings" });
    expect(response.statusCode).toBe(200);
    return response.json().listings.map((l: { id: string }) => l.id);
  }
  async function rowState(listingId: string): Promise<string | undefined> {
    const [row] = await h.database.db.select().from(marketListings).where(eq(marketListings.id, listingId));
    return row?.state;
  }

  it("refuses a new intent with 409 listing_not_active as soon as the transfer is accepted, before it is indexed", async () => {
    const { seller, namespace, listingId } = await listed();
    const buyer = await h.funded();
    expect((await h.intent(listingId, Keypair.random().publicKey())).status).toBe(200);
    await h.propose(seller, namespace, buyer.publicKey());
    await h.accept(buyer, namespace);

    // Neither the indexer nor the watcher has run since the acceptance: the mirror still lists it.
    expect(await listedIds()).toContain(listingId);
    expect(await rowState(listingId)).toBe("active");
    const late = Keypair.random().publicKey();
    const refused = await h.intent(listingId, late);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "listing_not_active", id: listingId });
    const minted = await h.database.db.select().from(marketIntents).where(eq(marketIntents.buyer, late));
    expect(minted).toEqual([]);
  });

  it("drops the listing from /v1/market/listings once the transfer is indexed, before the watcher closes it", async () => {
    const { seller, namespace, listingId } = await listed();
    const buyer = await h.funded();
    expect(await listedIds()).toContain(listingId);
    await h.propose(seller, namespace, buyer.publicKey());
    await h.accept(buyer, namespace);
    await runUntilIdle(h.indexer);

    expect(await listedIds()).not.toContain(listingId);
    expect(await rowState(listingId)).toBe("active");
    const refused = await h.intent(listingId, Keypair.random().publicKey());
    expect([refused.status, refused.body.error]).toEqual([409, "listing_not_active"]);
    // Once the watcher has run, the row agrees: closed, with its bond on the way back.
    await h.sync();
    expect(await rowState(listingId)).toBe("closed");
    expect(await listedIds()).not.toContain(listingId);
  });

  it("stays closed when the namespace comes back to the seller: an accepted transfer since the bond ends the listing", async () => {
    const { seller, namespace, listingId } = await listed();
    const other = await h.funded();
    await h.propose(seller, namespace, other.publicKey());
    await h.accept(other, namespace);
    await h.propose(other, namespace, seller.publicKey());
    await h.accept(seller, namespace);
    await runUntilIdle(h.indexer);

    // The seller owns it again, on chain and in the mirror, yet the listing that was sold is not on offer.
    expect(await listedIds()).not.toContain(listingId);
    const refused = await h.intent(listingId, Keypair.random().publicKey());
    expect([refused.status, refused.body.error]).toEqual([409, "listing_not_active"]);
  });

  it("answers 503 chain_unavailable, not an intent, when the registry cannot be read", async () => {
    const { listingId } = await listed();
    const deadRpc = `http://127.0.0.1:${await freePort()}`;
    const app = await buildApp({
      config: h.config,
      db: h.database,
      redis: null,
      chainClient: new ChainClient(deadRpc, h.devnet.networkPassphrase, { timeoutMs: 5_000 }),
    });
    try {
      const buyer = Keypair.random().publicKey();
      const response = await app.inject({
        method: "POST",
        url: `/v1/market/listings/${listingId}/intent`,
        payload: { account: buyer },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ error: "chain_unavailable" });
      expect(response.headers["cache-control"]).toBe("no-store");
      const minted = await h.database.db.select().from(marketIntents).where(eq(marketIntents.buyer, buyer));
      expect(minted).toEqual([]);
    } finally {
      await app.close();
    }
    // The same listing through the live RPC still mints.
    expect((await h.intent(listingId, Keypair.random().publicKey())).status).toBe(200);
  });
});
