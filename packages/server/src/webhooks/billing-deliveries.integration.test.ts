// The billing watcher's change events delivered as webhooks: a real payment on the devnet credited by the
// watcher (billing.paid) and its paid-until passing (billing.lapsed), fanned out to the namespace's endpoint and
// delivered signed, verified with `standardwebhooks`. The chain types: chain-deliveries.integration.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BillingHarness, demoPayers, startBillingHarness } from "../../test/fixtures/billing.ts";
import { testConfig } from "../../test/fixtures/config.ts";
import { PERIOD_MS } from "../billing/terms.ts";
import { readChanges } from "../db/outbox.ts";
import { webhookEndpoints } from "../db/tables.ts";
import { WebhookDeliverer } from "./deliverer.ts";
import { newWebhookSecret } from "./signing.ts";
import { takeDelivererEpoch } from "./store.ts";

describe("billing change events as webhooks", () => {
  let h: BillingHarness;
  let server: Server;
  const received: { headers: Record<string, string>; body: string }[] = [];

  beforeAll(async () => {
    h = await startBillingHarness("pglite");
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        received.push({
          headers: request.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString(),
        });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  }, 120_000);
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await h?.close();
  });

  it("delivers billing.paid and billing.lapsed to the namespace's endpoint, signed", async () => {
    const db = h.database.db;
    const secret = newWebhookSecret();
    const head = (await readChanges(db, 0, 100_000)).at(-1)?.id ?? 0;
    await db.insert(webhookEndpoints).values({
      id: "ep_billing",
      namespace: "acme",
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/billing`,
      types: ["billing.paid", "billing.lapsed"],
      secret,
      createdAt: new Date(),
      cursor: head,
    });
    const payment = await h.payFor(demoPayers().acme, "acme", "10");
    await h.sync();
    await h.watcher({ now: () => new Date(Date.now() + 10 * PERIOD_MS) }).runOnce();

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
    expect(events.map((e) => e.type)).toEqual(["billing.paid", "billing.lapsed"]);
    expect(events[0]?.data).toMatchObject({
      namespace: "acme",
      eventId: payment.id,
      txHash: payment.hash,
      ledger: payment.ledger,
      periods: 1,
      amountXlm: "10.0000000",
    });
    expect(events[1]?.data).toMatchObject({ namespace: "acme", paidUntil: events[0]?.data.paidUntil });
  });
});
