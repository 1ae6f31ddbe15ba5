// The billing watcher's change events delivered as webhooks: a real payment on the devnet credited by the
// watcher (billing.paid) and its paid-until passing (billing.lapsed), fanned out to the namespace's endpoint and
// delivered signed, verified with `standardwebhooks`. The chain types: chain-deliveries.integration.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BillingHarness, demoPayers, startBillingHarness } from "../../test/fixtures/billing.ts";
import {
  deliverPending,
  startWebhookReceiver,
  type WebhookReceiver,
} from "../../test/fixtures/webhook-receiver.ts";
import { PERIOD_MS } from "../billing/terms.ts";

describe("billing change events as webhooks", () => {
  let h: BillingHarness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    h = await startBillingHarness("pglite");
    receiver = await startWebhookReceiver(204);
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await h?.close();
  });

  it("delivers billing.paid and billing.lapsed to the namespace's endpoint, signed", async () => {
    const db = h.database.db;
    const secret = await receiver.subscribe(db, {
      id: "ep_billing",
      namespace: "acme",
      types: ["billing.paid", "billing.lapsed"],
    });
    const payment = await h.payFor(demoPayers().acme, "acme", "10");
    await h.sync();
    await h.watcher({ now: () => new Date(Date.now() + 10 * PERIOD_MS) }).runOnce();

    await deliverPending(db);
    const events = receiver.events(secret);
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
