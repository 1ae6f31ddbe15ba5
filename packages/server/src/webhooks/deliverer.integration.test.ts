// The deliverer against a real receiver on loopback, on PGlite and PostgreSQL, driven pass by pass on a clock the
// test moves (no sleeping, no timing): signatures that `standardwebhooks` verifies, order per endpoint, the
// namespace and type filters, the same webhook-id on a retry, Retry-After, 410, the 5-day rule, a rotation's two
// signatures, the connect-time SSRF refusal and the fence.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import {
  createTestDatabase,
  FEATURE_DATABASE_KINDS,
  type TestDatabase,
} from "../../test/fixtures/database.ts";
import type { ChangeDraft } from "../changes/catalogue.ts";
import { appendChanges, changePayload, readChanges } from "../db/outbox.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../db/tables.ts";
import { WebhookDeliverer } from "./deliverer.ts";
import { newWebhookSecret } from "./signing.ts";
import { DelivererFencedError, takeDelivererEpoch } from "./store.ts";

interface Received {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A receiver answering each path from its own script of answers (then 200), recording every request. */
class Receiver {
  readonly received: Received[] = [];
  readonly script = new Map<string, { status: number; headers?: Record<string, string>; body?: string }[]>();
  server!: Server;
  port = 0;

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (c: Buffer) => chunks.push(c));
      request.on("end", () => {
        const path = request.url ?? "/";
        this.received.push({
          path,
          headers: request.headers as Record<string, string>,
          body: Buffer.concat(chunks).toString(),
        });
        const next = this.script.get(path)?.shift() ?? { status: 200 };
        response.writeHead(next.status, next.headers).end(next.body ?? "ok");
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

/** Now, to the second: receivers (standardwebhooks) accept a timestamp within 5 minutes of their own clock. */
const T0 = new Date(Math.floor(Date.now() / 1000) * 1000);
const SCHEDULE = "1s,1s,1s,1s,1s,1s,1s,1s,1s,1s";

function change(
  namespace: string,
  n: number,
  type: ChangeDraft["type"] = "record.text_changed",
): ChangeDraft {
  const common = {
    namespace,
    ledger: 1000 + n,
    txHash: "cd".repeat(32),
    eventId: `ev-${namespace}-${n}`,
    at: T0,
  };
  if (type === "name.renewed")
    return { ...common, type, name: `n${n}.${namespace}`, data: { expiresAt: null } };
  return { ...common, type: "record.text_changed", name: `n${n}.${namespace}`, data: { key: `k${n}` } };
}

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`webhook deliverer on ${kind}`, () => {
    let database: TestDatabase;
    const receiver = new Receiver();
    let clock = T0;
    const now = () => clock;
    const advance = (ms: number) => {
      clock = new Date(clock.getTime() + ms);
    };

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      await receiver.start();
    });
    afterAll(async () => {
      await receiver.stop();
      await database?.close();
    });
    beforeEach(async () => {
      await database.db.delete(webhookEndpoints);
      receiver.received.length = 0;
      receiver.script.clear();
      clock = T0;
    });

    const deliverer = async (env: Record<string, string> = {}) => {
      const settings = testConfig({
        WEBHOOK_ALLOW_HTTP: "true",
        WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
        WEBHOOK_RETRY_SCHEDULE: SCHEDULE,
        ...env,
      }).webhooks;
      return new WebhookDeliverer({
        db: database.db,
        settings,
        epoch: await takeDelivererEpoch(database.db, T0),
        now,
      });
    };
    /** One pass and every attempt it started, recorded. */
    const pass = async (d: WebhookDeliverer) => {
      const summary = await d.pass({ fanOut: true });
      await d.settle();
      return summary;
    };
    const head = async () => {
      const rows = await readChanges(database.db, 0, 100_000);
      return rows.at(-1)?.id ?? 0;
    };
    const endpoint = async (
      id: string,
      path: string,
      namespace = "acme",
      types = ["record.text_changed"],
    ) => {
      const secret = newWebhookSecret();
      await database.db.insert(webhookEndpoints).values({
        id,
        namespace,
        url: receiver.url(path),
        types,
        secret,
        createdAt: clock,
        cursor: await head(),
      });
      return secret;
    };
    const write = (drafts: ChangeDraft[]) => database.db.transaction((tx) => appendChanges(tx, drafts));
    const deliveries = (endpointId: string) =>
      database.db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.endpointId, endpointId))
        .orderBy(webhookDeliveries.position);
    const attemptsOf = (deliveryId: string) =>
      database.db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, deliveryId))
        .orderBy(webhookAttempts.id);

    it("delivers its namespace's changes of its types, in order, signed so standardwebhooks verifies", async () => {
      const secret = await endpoint(`ep_a_${kind}`, "/a");
      await write([
        change("acme", 1),
        change("other", 2),
        change("acme", 3, "name.renewed"),
        change("acme", 4),
        change("acme", 5),
      ]);
      const d = await deliverer();
      expect(await pass(d)).toEqual({ queued: 3, started: 1 });
      // One at a time per endpoint: each pass sends the next only after the previous was recorded.
      await pass(d);
      await pass(d);
      const got = receiver.at("/a");
      const rows = await readChanges(database.db, 0, 100, {
        namespace: "acme",
        types: ["record.text_changed"],
      });
      expect(got.map((r) => r.body)).toEqual(rows.slice(-3).map((row) => changePayload(row)));
      expect(got.map((r) => JSON.parse(r.body).data.eventId)).toEqual([
        "ev-acme-1",
        "ev-acme-4",
        "ev-acme-5",
      ]);
      const wh = new Webhook(secret);
      for (const r of got) {
        expect(wh.verify(r.body, r.headers)).toEqual(JSON.parse(r.body));
        expect(r.headers["webhook-timestamp"]).toBe(String(T0.getTime() / 1000));
        expect(r.headers["content-type"]).toBe("application/json");
      }
      const stored = await deliveries(`ep_a_${kind}`);
      expect(stored.map((s) => [s.id, s.state, s.attempts])).toEqual(
        got.map((r) => [r.headers["webhook-id"], "delivered", 1]),
      );
      expect(await pass(d)).toEqual({ queued: 0, started: 0 });
    });

    it("retries a receiver answering 500 with the same webhook-id, and logs each attempt", async () => {
      await endpoint(`ep_r_${kind}`, "/flaky");
      receiver.script.set("/flaky", [
        { status: 500, body: "database on fire" },
        { status: 503, body: "still" },
      ]);
      await write([change("acme", 10)]);
      const d = await deliverer();
      await pass(d);
      // Not due before its wait: nothing is sent.
      await pass(d);
      expect(receiver.at("/flaky")).toHaveLength(1);
      advance(1000);
      await pass(d);
      advance(1000);
      await pass(d);
      const got = receiver.at("/flaky");
      expect(got).toHaveLength(3);
      const ids = new Set(got.map((r) => r.headers["webhook-id"]));
      expect(ids.size).toBe(1);
      const [delivery] = await deliveries(`ep_r_${kind}`);
      expect(delivery).toMatchObject({
        id: [...ids][0],
        state: "delivered",
        attempts: 3,
        nextAttemptAt: null,
      });
      const attempts = await attemptsOf(delivery?.id ?? "");
      expect(
        attempts.map((a) => [a.statusCode, a.responseExcerpt, a.nextAttemptAt?.toISOString() ?? null]),
      ).toEqual([
        [500, "database on fire", new Date(T0.getTime() + 1000).toISOString()],
        [503, "still", new Date(T0.getTime() + 2000).toISOString()],
        [200, "ok", null],
      ]);
      const [row] = await database.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, `ep_r_${kind}`));
      expect(row?.failingSince).toBeNull();
    });

    it("honours Retry-After: the next attempt is not before the receiver asked", async () => {
      await endpoint(`ep_ra_${kind}`, "/busy");
      receiver.script.set("/busy", [{ status: 429, headers: { "retry-after": "7" } }]);
      await write([change("acme", 20)]);
      const d = await deliverer();
      await pass(d);
      const [delivery] = await deliveries(`ep_ra_${kind}`);
      expect(delivery?.nextAttemptAt?.toISOString()).toBe(new Date(T0.getTime() + 7000).toISOString());
      advance(6999);
      await pass(d);
      expect(receiver.at("/busy")).toHaveLength(1);
      advance(1);
      await pass(d);
      expect(receiver.at("/busy")).toHaveLength(2);
      expect((await deliveries(`ep_ra_${kind}`))[0]?.state).toBe("delivered");
    });

    it("disables an endpoint answering 410; its pending deliveries fail with the reason", async () => {
      await endpoint(`ep_g_${kind}`, "/gone");
      receiver.script.set("/gone", [{ status: 410 }]);
      await write([change("acme", 30), change("acme", 31)]);
      const d = await deliverer();
      await pass(d);
      await pass(d);
      expect(receiver.at("/gone")).toHaveLength(1);
      const [row] = await database.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, `ep_g_${kind}`));
      expect(row).toMatchObject({ disabledAt: T0, disabledReason: "the receiver answered 410 Gone" });
      expect((await deliveries(`ep_g_${kind}`)).map((x) => [x.state, x.reason])).toEqual([
        ["failed", "the receiver answered 410 Gone"],
        ["failed", "endpoint disabled: the receiver answered 410 Gone"],
      ]);
      // A disabled endpoint hears nothing more.
      await write([change("acme", 32)]);
      expect(await pass(d)).toEqual({ queued: 0, started: 0 });
    });

    it("gives a delivery up after the schedule, goes on to the next, and disables after 5 days of failing", async () => {
      await endpoint(`ep_f_${kind}`, "/down");
      receiver.script.set(
        "/down",
        Array.from({ length: 20 }, () => ({ status: 502 })),
      );
      await write([change("acme", 40), change("acme", 41)]);
      const d = await deliverer({ WEBHOOK_RETRY_SCHEDULE: "1h,1h" });
      for (let i = 0; i < 3; i++) {
        await pass(d);
        advance(3_600_000);
      }
      const [first, second] = await deliveries(`ep_f_${kind}`);
      expect(first).toMatchObject({ state: "failed", attempts: 3, reason: "no success after 3 attempts" });
      expect(second).toMatchObject({ state: "pending", attempts: 0 });
      await pass(d);
      expect((await deliveries(`ep_f_${kind}`))[1]).toMatchObject({ state: "pending", attempts: 1 });
      advance(5 * 86_400_000);
      await pass(d);
      const [row] = await database.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, `ep_f_${kind}`));
      const reason = `failing for 5 days: no delivery has succeeded since ${T0.toISOString()}`;
      expect(row).toMatchObject({ disabledReason: reason, failingSince: T0 });
      expect((await deliveries(`ep_f_${kind}`))[1]).toMatchObject({ state: "failed", reason, attempts: 2 });
    });

    it("signs with both secrets during a rotation, and with the new one alone after the overlap", async () => {
      const old = await endpoint(`ep_rot_${kind}`, "/rot");
      const fresh = newWebhookSecret();
      await database.db
        .update(webhookEndpoints)
        .set({ secret: fresh, previousSecret: old, previousSecretUntil: new Date(T0.getTime() + 86_400_000) })
        .where(eq(webhookEndpoints.id, `ep_rot_${kind}`));
      await write([change("acme", 50)]);
      const d = await deliverer();
      await pass(d);
      const [during] = receiver.at("/rot");
      expect(during?.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
      expect(new Webhook(old).verify(during?.body ?? "", during?.headers ?? {})).toBeTruthy();
      expect(new Webhook(fresh).verify(during?.body ?? "", during?.headers ?? {})).toBeTruthy();
      advance(86_400_000);
      await write([change("acme", 51)]);
      await pass(d);
      const after = receiver.at("/rot")[1];
      expect(after?.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
      // The receiver's tolerance is 5 minutes from its own clock; the test's clock is a day on.
      const signed = { ...after?.headers, "webhook-timestamp": after?.headers["webhook-timestamp"] ?? "" };
      expect(() => new Webhook(old).verify(after?.body ?? "", signed)).toThrow();
    });

    it("refuses a private target at connect time without the switch, and records why", async () => {
      await endpoint(`ep_ssrf_${kind}`, "/private");
      await write([change("acme", 60)]);
      const d = await deliverer({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "false" });
      await pass(d);
      expect(receiver.at("/private")).toEqual([]);
      const [delivery] = await deliveries(`ep_ssrf_${kind}`);
      expect(delivery).toMatchObject({ state: "pending", attempts: 1 });
      const [attempt] = await attemptsOf(delivery?.id ?? "");
      expect(attempt).toMatchObject({ statusCode: null, responseExcerpt: null });
      expect(attempt?.error).toContain(
        "target refused: 127.0.0.1 is a loopback address (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)",
      );
    });

    it("is fenced: once a successor took the epoch, the old deliverer records nothing", async () => {
      await endpoint(`ep_fence_${kind}`, "/fence");
      await write([change("acme", 70)]);
      const old = await deliverer();
      await takeDelivererEpoch(database.db, T0);
      await expect(old.pass()).rejects.toThrow(DelivererFencedError);
      expect(await deliveries(`ep_fence_${kind}`)).toEqual([]);
    });
  });
}
