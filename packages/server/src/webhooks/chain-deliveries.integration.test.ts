// A signed delivery for each chain change type, from real chain changes on the devnet: the demo scenario (claims,
// issues, records, subnames, primary names, policies) plus a renewal, an address change, a name transfer and a
// namespace transfer made here, indexed into the outbox by the indexer, fanned out to one endpoint per namespace
// and delivered to a loopback receiver that verifies every delivery with `standardwebhooks`. Each endpoint hears
// its own namespace alone, and receives each of its changes exactly as the outbox serialises it. The billing
// watcher's types: billing-deliveries.integration.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { demoKeypair, settlingWallet } from "@namereg/devnet";
import { namespaceNode, RegistrarFns, RegistryFns } from "@namereg/protocol";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { type IndexedDemoChain, indexDemo, runUntilIdle } from "../../test/fixtures/demo.ts";
import { waitForProgress } from "../../test/fixtures/progress.ts";
import { CHANGE_TYPES } from "../changes/catalogue.ts";
import { changePayload, readChanges } from "../db/outbox.ts";
import { webhookDeliveries, webhookEndpoints } from "../db/tables.ts";
import { WebhookDeliverer } from "./deliverer.ts";
import { newWebhookSecret } from "./signing.ts";
import { takeDelivererEpoch } from "./store.ts";

/** Types announced by the watchers (escrow, billing), not by chain events the indexer reads. */
const WATCHER_TYPES = ["market.listed", "market.sold", "billing.paid", "billing.lapsed"];
const CHAIN_TYPES = CHANGE_TYPES.filter((t) => !WATCHER_TYPES.includes(t));

interface Received {
  readonly namespace: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

describe("signed deliveries of real chain changes", () => {
  let chain: IndexedDemoChain;
  let server: Server;
  const received: Received[] = [];
  const secrets = new Map<string, string>();

  beforeAll(async () => {
    chain = await indexDemo("pglite");
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        received.push({
          namespace: (request.url ?? "/").slice(1),
          headers: request.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString(),
        });
        response.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await chain?.database.close();
    await chain?.devnet.stop();
  });

  it("delivers every chain change type, signed, to the endpoints of its namespace only", async () => {
    const { devnet, database, indexer } = chain;
    const db = database.db;
    const demo = devnet.demo;
    if (demo === undefined) throw new Error("the demo scenario did not run");
    const wallet = settlingWallet(devnet);
    const [alice, bob, acme, plain] = [
      demoKeypair("alice"),
      demoKeypair("bob"),
      demoKeypair("acme"),
      demoKeypair("plain"),
    ];
    const { registrar } = demo.namespaces.acme;
    const later = BigInt(Math.floor(Date.now() / 1000) + 2 * 365 * 86_400);
    await wallet.invoke(acme, registrar, RegistrarFns.renew, { label: "bob", expiresAt: later });
    await wallet.invoke(alice, registrar, RegistrarFns.set_address, {
      label: "alice",
      address: bob.publicKey(),
    });
    await wallet.invoke(bob, registrar, RegistrarFns.transfer, { label: "bob", to: alice.publicKey() });
    await wallet.invoke(plain, demo.contracts.registry, RegistryFns.propose_transfer, {
      node: namespaceNode("plain"),
      to: acme.publicKey(),
      expires: later,
    });
    await wallet.invoke(acme, demo.contracts.registry, RegistryFns.accept_transfer, {
      node: namespaceNode("plain"),
    });
    await runUntilIdle(indexer);

    // One endpoint per namespace with changes, hearing every type, from the start of the outbox.
    const changes = await readChanges(db, 0, 10_000);
    const namespaces = [...new Set(changes.map((c) => c.namespace))];
    const port = (server.address() as AddressInfo).port;
    for (const namespace of namespaces) {
      const secret = newWebhookSecret();
      secrets.set(namespace, secret);
      await db.insert(webhookEndpoints).values({
        id: `ep_${namespace}`,
        namespace,
        url: `http://127.0.0.1:${port}/${namespace}`,
        types: [...CHANGE_TYPES],
        secret,
        createdAt: new Date(),
        cursor: 0,
      });
    }
    const settings = testConfig({
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    }).webhooks;
    const deliverer = new WebhookDeliverer({ db, settings, epoch: await takeDelivererEpoch(db, new Date()) });
    await waitForProgress(
      async () => {
        await deliverer.pass({ fanOut: true });
        await deliverer.settle();
        return received.length >= changes.length;
      },
      "every change delivered",
      { measure: () => received.length },
    );

    const rows = await db.select().from(webhookDeliveries);
    expect(rows.every((r) => r.state === "delivered" && r.attempts === 1)).toBe(true);
    expect(received).toHaveLength(changes.length);
    const expectedBodies = new Map(changes.map((c) => [changePayload(c), c.namespace]));
    for (const r of received) {
      const event = new Webhook(secrets.get(r.namespace) ?? "").verify(r.body, r.headers) as {
        type: string;
        data: { namespace: string; ledger: number; txHash: string };
      };
      expect(event.data.namespace).toBe(r.namespace);
      expect(expectedBodies.get(r.body)).toBe(r.namespace);
      expect(event.data.ledger).toBeGreaterThan(0);
      expect(event.data.txHash).toMatch(/^[0-9a-f]{64}$/);
    }
    const types = new Set(received.map((r) => (JSON.parse(r.body) as { type: string }).type));
    expect([...types].sort()).toEqual([...CHAIN_TYPES].sort());
  });
});
