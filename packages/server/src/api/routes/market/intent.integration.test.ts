// Intent minting under concurrency (PostgreSQL, several connections) and its own per-IP rate limit.
import { Keypair } from "@stellar/stellar-sdk";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketHarness, startMarketHarness } from "../../../../test/fixtures/market.ts";
import { marketIntents } from "../../../db/tables.ts";

describe("deposit intents on PostgreSQL", () => {
  let h: MarketHarness;
  let listingId: string;
  beforeAll(async () => {
    h = await startMarketHarness("postgres", { intentPerMinute: 10 });
    const seller = await h.funded();
    listingId = await h.list(seller, await h.namespaceFor(seller), "100");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("concurrent mints for one (listing, buyer): one intent, the losers answer 409 intent_conflict", async () => {
    let conflicts = 0;
    // Each round fires 8 mints at once for a fresh buyer (8 requests: under the limit of 10 per minute only
    // because each round uses its own client address).
    for (let round = 0; round < 5 && conflicts === 0; round++) {
      const buyer = Keypair.random().publicKey();
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          h.app.inject({
            method: "POST",
            url: `/v1/market/listings/${listingId}/intent`,
            payload: { account: buyer },
            remoteAddress: `10.0.${round}.1`,
          }),
        ),
      );
      const ok = responses.filter((r) => r.statusCode === 200).map((r) => r.json());
      const conflicted = responses.filter((r) => r.statusCode === 409);
      expect(ok.length + conflicted.length).toBe(8);
      for (const r of conflicted) expect(r.json().error).toBe("intent_conflict");
      expect(ok.length).toBeGreaterThan(0);
      expect(new Set(ok.map((b) => b.intent.id)).size).toBe(1);
      const rows = await h.database.db
        .select()
        .from(marketIntents)
        .where(and(eq(marketIntents.listingId, listingId), eq(marketIntents.buyer, buyer)));
      expect(rows).toHaveLength(1);
      conflicts += conflicted.length;
    }
    expect(conflicts).toBeGreaterThan(0);
  });

  it("tells the buyer what the escrow does not send back on its own (dust, XLM not sent by a payment)", async () => {
    const buyer = Keypair.random().publicKey();
    const r = await h.app.inject({
      method: "POST",
      url: `/v1/market/listings/${listingId}/intent`,
      payload: { account: buyer },
      remoteAddress: "10.9.0.1",
    });
    expect(r.statusCode).toBe(200);
    expect(r.json().pay.note).toBe(
      `Pay exactly 100.0000000 XLM with one payment operation from ${buyer} with this hash memo, only once the ` +
        "seller's transfer proposal to you is live. A payment that does not match is sent back to the sender; " +
        "XLM sent any other way (a token contract transfer, a path payment, an account merge) and anything that " +
        "would come back as less than 1 XLM are held until the marketplace operator returns them.",
    );
  });

  it("answers 400 invalid_account for a missing, non-string or malformed account, and invalid_request for another field", async () => {
    const mint = (payload: object, remoteAddress: string) =>
      h.app.inject({
        method: "POST",
        url: `/v1/market/listings/${listingId}/intent`,
        payload,
        remoteAddress,
      });
    for (const [i, payload] of [{}, { account: 7 }, { account: "GABC" }].entries()) {
      const r = await mint(payload, `10.8.${i}.1`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe("invalid_account");
      expect(r.json().detail).toMatch(/^account: /);
    }
    const extra = await mint({ account: Keypair.random().publicKey(), amount: "1" }, "10.8.9.1");
    expect([extra.statusCode, extra.json().error]).toEqual([400, "invalid_request"]);
  });

  it("limits intent minting to 10 a minute per IP, apart from the global limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await h.app.inject({
        method: "POST",
        url: `/v1/market/listings/${listingId}/intent`,
        payload: { account: Keypair.random().publicKey() },
        remoteAddress: "10.9.9.9",
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    // Other routes from the same address are still served.
    expect((await h.app.inject({ url: "/v1/market/listings", remoteAddress: "10.9.9.9" })).statusCode).toBe(
      200,
    );
  });
});
