// "A slow or failing endpoint holds only itself" (docs/webhooks.md "Delivery"): eight endpoints of one namespace
// that never answer, and another namespace's endpoint on the same host, the same port: the latter's change is
// delivered while all eight still hang — each endpoint has its own connection, none waits in a queue behind
// another's — and its webhook-timestamp is the moment its request went out, not a moment before a wait.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import type { ChangeDraft } from "../changes/catalogue.ts";
import { appendChanges } from "../db/outbox.ts";
import { webhookDeliveries, webhookEndpoints } from "../db/tables.ts";
import { WebhookDeliverer } from "./deliverer.ts";
import { newWebhookSecret } from "./signing.ts";
import { takeDelivererEpoch } from "./store.ts";

const HANGING = 8;

let database: TestDatabase;
const server = createServer();
/** Requests to /hang/… received and not answered yet. */
const hanging: ServerResponse[] = [];
/** When each request to /ok arrived (ms), with its headers. */
const delivered: { at: number; headers: IncomingMessage["headers"] }[] = [];
let arrived: () => void = () => {};
const okArrived = new Promise<void>((resolve) => {
  arrived = resolve;
});

beforeAll(async () => {
  database = await createTestDatabase("pglite");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on("end", () => {
      if (request.url?.startsWith("/hang/")) {
        hanging.push(response);
        return;
      }
      delivered.push({ at: Date.now(), headers: request.headers });
      response.writeHead(200).end("ok");
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await database?.close();
});

function change(namespace: string, n: number): ChangeDraft {
  return {
    namespace,
    type: "record.text_changed",
    name: `n${n}.${namespace}`,
    data: { key: `k${n}` },
    ledger: 1000 + n,
    txHash: "cd".repeat(32),
    eventId: `ev-${namespace}-${n}`,
    at: new Date(),
  };
}

it("delivers another namespace's change on the same host while eight endpoints hang", async () => {
  const port = (server.address() as AddressInfo).port;
  const endpoint = (id: string, namespace: string, path: string) => ({
    id,
    namespace,
    url: `http://127.0.0.1:${port}${path}`,
    types: ["record.text_changed"],
    secret: newWebhookSecret(),
    createdAt: new Date(),
    cursor: 0,
  });
  await database.db
    .insert(webhookEndpoints)
    .values([
      ...Array.from({ length: HANGING }, (_, i) => endpoint(`ep_hang_${i}`, "plain", `/hang/${i}`)),
      endpoint("ep_ok", "acme", "/ok"),
    ]);
  const settings = testConfig({
    WEBHOOK_ALLOW_HTTP: "true",
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    // The longest allowed: the hanging attempts do not end while the test looks (a fix sends /ok at once).
    WEBHOOK_TIMEOUT_MS: "60000",
  }).webhooks;
  const deliverer = new WebhookDeliverer({
    db: database.db,
    settings,
    epoch: await takeDelivererEpoch(database.db, new Date()),
  });
  const stop = new AbortController();
  const running = deliverer.run(stop.signal);
  try {
    await database.db.transaction((tx) => appendChanges(tx, [change("plain", 1)]));
    deliverer.changed();
    const written = Date.now();
    await database.db.transaction((tx) => appendChanges(tx, [change("acme", 2)]));
    deliverer.changed();
    await okArrived;
    // Delivered while every hanging attempt is still open, none of them answered or given up.
    expect(hanging.filter((r) => !r.writableEnded && !r.destroyed)).toHaveLength(HANGING);
    expect(delivered).toHaveLength(1);
    // Stamped when sent: not before the change it carries was written.
    const stamp = Number(delivered[0]?.headers["webhook-timestamp"]);
    expect(stamp).toBeGreaterThanOrEqual(Math.floor(written / 1000));
    let state: string | undefined;
    while (state !== "delivered") {
      const [row] = await database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, "ep_ok"));
      state = row?.state;
      if (state !== "delivered") await new Promise((r) => setTimeout(r, 20));
    }
    expect(hanging.filter((r) => !r.writableEnded && !r.destroyed)).toHaveLength(HANGING);
  } finally {
    for (const response of hanging) response.writeHead(200).end("late");
    stop.abort();
    await running;
  }
}, 120_000);
