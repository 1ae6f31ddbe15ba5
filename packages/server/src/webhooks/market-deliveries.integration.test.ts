// The escrow watcher's change events delivered as webhooks: a namespace listed on the devnet (its bond seen:
// market.listed) and sold (a funded deposit, the buyer's acceptance, the sale settled: market.sold), fanned out to
// the namespace's endpoint and delivered signed, verified with `standardwebhooks`.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { type MarketHarness, startMarketHarness } from "../../test/fixtures/market.ts";
import { readChanges } from "../db/outbox.ts";
import { webhookEndpoints } from "../db/tables.ts";
import { WebhookDeliverer } from "./deliverer.ts";
import { newWebhookSecret } from "./signing.ts";
import { takeDelivererEpoch } from "./store.ts";

describe("market change events as webhooks", () => {
  let h: MarketHarness;
  let server: Server;
  const received: { headers: Record<string, string>; body: string }[] = [];

  beforeAll(async () => {
    h = await startMarketHarness("pglite");
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        received.push({
          headers: request.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString(),
        });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  }, 120_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await h?.close();
  });

  it("delivers market.listed and market.sold to the namespace's endpoint, signed", async () => {
    const db = h.database.db;
    const seller = await h.funded();
    const buyer = await h.funded();
    const namespace = await h.namespaceFor(seller);
    const secret = newWebhookSecret();
    await db.insert(webhookEndpoints).values({
      id: "ep_market",
      namespace,
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/market`,
      types: ["market.listed", "market.sold"],
      secret,
      createdAt: new Date(),
      cursor: (await readChanges(db, 0, 100_000)).at(-1)?.id ?? 0,
    });
    const listingId = await h.list(seller, namespace, "100");
    const { body } = await h.intent(listingId, buyer.publicKey());
    await h.propose(seller, namespace, buyer.publicKey());
    await h.pay(buyer, "100", body.pay.memoHash);
    await h.sync();
    await h.accept(buyer, namespace);
    await h.sync();

    const settings = testConfig({
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    }).webhooks;
    const deliverer = new WebhookDeliverer({ db, settings, epoch: await takeDelivererEpoch(db, new Date()) });
    for (let i = 0; i < 4; i++) {
      await deliverer.pass({ fanOut: true });
      await deliverer.settle();
    }
    const events = received.map((r) => new Webhook(secret).verify(r.body, r.headers)) as {
      type: string;
      data: Record<string, unknown>;
    }[];
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
