// The escrow watcher's change events delivered as webhooks: a namespace listed on the devnet (its bond seen:
// market.listed) and sold (a funded deposit, the buyer's acceptance, the sale settled: market.sold), fanned out to
// the namespace's endpoint and delivered signed, verified with `standardwebhooks`.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MarketHarness, startMarketHarness } from "../../test/fixtures/market.ts";
import {
  deliverPending,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../test/fixtures/webhook-receiver.ts";

describe("market change events as webhooks", () => {
  let h: MarketHarness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    h = await startMarketHarness("pglite");
    receiver = await startWebhookReceiver(200);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it("delivers market.listed and market.sold to the namespace's endpoint, signed", async () => {
    const db = h.database.db;
    const seller = await h.funded();
    const buyer = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const secret = await receiver.subscribe(db, {
      id: "ep_market",
      namespace,
      types: ["market.listed", "market.sold"],
    });
    const listingId = await h.list(seller, namespace, "100");
    const { body } = await h.intent(listingId, buyer.publicKey());
    await h.propose(seller, namespace, buyer.publicKey());
    await h.pay(buyer, "100", body.pay.memoHash);
    await h.sync();
    await h.accept(buyer, namespace);
    await h.sync();

    await deliverPending(db);
    const events = receiver.events(secret);
    expect(events.map((e) => e.type)).toEqual(["market.listed", "market.sold"]);
    expect(events[0]?.data).toMatchObject({
      namespace,
      listingId,
      seller: seller.publicKey(),
      priceXlm: "100.0000000",
    });
    expect(events[1]?.data).toMatchObject({
      namespace,
      listingId,
      seller: seller.publicKey(),
      buyer: buyer.publicKey(),
      priceXlm: "100.0000000",
    });
  });
});
