// The webhook console routes on PGlite and PostgreSQL, the chain's namespace records played by a stand-in chain
// client and target host names by a stand-in resolver (no DNS): registration with its URL checks, the listing
// without secrets, the namespace boundary, the cap, rotation, the delivery log and retry.
import { STANDALONE_PASSPHRASE } from "@namereg/devnet";
import { type Namespace, namespaceNode, RegistryFns } from "@namereg/protocol";
import { Keypair, StrKey } from "@stellar/stellar-sdk";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../../test/fixtures/config.ts";
import {
  createTestDatabase,
  FEATURE_DATABASE_KINDS,
  type TestDatabase,
} from "../../../../test/fixtures/database.ts";
import { bearer, signIn } from "../../../../test/fixtures/wallet-auth.ts";
import type { ChainClient } from "../../../chain/chain-client.ts";
import type { Env } from "../../../config/index.ts";
import { appendChanges } from "../../../db/outbox.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../../db/tables.ts";
import type { Resolver } from "../../../webhooks/target-policy.ts";
import { type App, buildApp } from "../../app.ts";

const contract = (n: number) => StrKey.encodeContract(Buffer.alloc(32, n));
const REGISTRY = contract(1);
const owner = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 21));
const stranger = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 22));

const record = (label: string, ownerId: string): Namespace => ({
  label,
  owner: ownerId,
  registrar: contract(2),
  resolver: contract(3),
  locked: false,
  allocatedLedger: 5n,
  method: "allocate",
});
const CHAIN = new Map(
  [record("acme", owner.publicKey()), record("beta", owner.publicKey())].map((r) => [
    namespaceNode(r.label ?? ""),
    r,
  ]),
);
const chainClient = {
  read: async (contractId: string, fn: unknown, args: { node: string }) => {
    if (contractId !== REGISTRY || fn !== RegistryFns.namespace) throw new Error("unexpected read");
    return CHAIN.get(args.node) ?? null;
  },
} as unknown as ChainClient;

/** hooks.example.com is public; internal.example.com resolves to a private address; nothing else resolves. */
const resolver: Resolver = async (host) => {
  if (host === "hooks.example.com") return [{ address: "93.184.215.14", family: 4 }];
  if (host === "internal.example.com") return [{ address: "192.168.1.20", family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};

const ENV: Env = { NETWORK_PASSPHRASE: STANDALONE_PASSPHRASE, REGISTRY_ID: REGISTRY };
const TYPES = ["name.issued", "record.text_changed"];
const clock = new Date("2026-03-01T12:00:00.000Z");

for (const kind of FEATURE_DATABASE_KINDS) {
  describe(`webhook console routes on ${kind}`, () => {
    let database: TestDatabase;
    let app: App;
    let open: App;
    let acme: string;
    let beta: string;

    const appWith = (env: Env) =>
      buildApp({
        config: testConfig({ ...ENV, ...env }),
        db: database,
        redis: null,
        now: () => clock,
        chainClient,
        webhookResolver: resolver,
      });

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      app = await appWith({ WEBHOOK_MAX_ENDPOINTS: "3" });
      open = await appWith({ WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_ALLOW_HTTP: "true" });
      acme = await signIn(app, owner);
      beta = await signIn(app, owner);
    });
    afterAll(async () => {
      await app?.close();
      await open?.close();
      await database?.close();
    });

    const call = async (
      method: "GET" | "POST" | "DELETE",
      url: string,
      token: string | null,
      namespace: string,
      payload?: object,
      on = app,
    ) => {
      const headers: Record<string, string> = { "x-service-namespace": namespace };
      if (token !== null) Object.assign(headers, bearer(token));
      const response = await on.inject({
        method,
        url,
        headers,
        ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
      });
      return { statusCode: response.statusCode, body: response.json() };
    };
    const register = (url: string, token = acme, namespace = "acme", on = app) =>
      call("POST", "/console/webhooks", token, namespace, { url, types: TYPES }, on);

    it("registers an endpoint: 201 with a whsec_ secret shown once, listed without it", async () => {
      const created = await register("https://hooks.example.com/in");
      expect(created).toEqual({
        statusCode: 201,
        body: {
          id: expect.stringMatching(/^ep_[A-Za-z0-9_-]{22}$/),
          url: "https://hooks.example.com/in",
          types: TYPES,
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
          createdAt: clock.toISOString(),
        },
      });
      expect(Buffer.from(created.body.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
      const listed = await call("GET", "/console/webhooks", acme, "acme");
      expect(listed).toEqual({
        statusCode: 200,
        body: {
          namespace: "acme",
          webhooks: [
            {
              id: created.body.id,
              url: "https://hooks.example.com/in",
              types: TYPES,
              createdAt: clock.toISOString(),
              enabled: true,
              disabledAt: null,
              disabledReason: null,
              failingSince: null,
              previousSecretExpiresAt: null,
            },
          ],
        },
      });
      expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);
      await call("DELETE", `/console/webhooks/${created.body.id}`, acme, "acme");
    });

    it("refuses loopback, private, metadata, [::1] and a name resolving privately: 400 invalid_webhook_url", async () => {
      const refusals: Record<string, string> = {
        "https://127.0.0.1/hook": "url: 127.0.0.1 is a loopback address, which is not accepted",
        "https://10.0.0.8/hook": "url: 10.0.0.8 is a private address, which is not accepted",
        "https://169.254.169.254/latest/meta-data/":
          "url: 169.254.169.254 is a link-local address, which is not accepted",
        "https://[::1]:9000/": "url: ::1 is a loopback address, which is not accepted",
        "https://internal.example.com/":
          "url: internal.example.com resolves to 192.168.1.20 is a private address, which is not accepted",
        "http://hooks.example.com/": "url: must be an https:// URL",
      };
      for (const [url, detail] of Object.entries(refusals)) {
        expect(await register(url)).toEqual({
          statusCode: 400,
          body: { error: "invalid_webhook_url", detail },
        });
      }
      expect(await database.db.select().from(webhookEndpoints)).toEqual([]);
    });

    it("accepts them with WEBHOOK_ALLOW_PRIVATE_TARGETS and WEBHOOK_ALLOW_HTTP", async () => {
      const token = await signIn(open, owner);
      for (const url of [
        "http://127.0.0.1:9000/hook",
        "https://[::1]:9000/",
        "https://internal.example.com/",
      ]) {
        const created = await register(url, token, "acme", open);
        expect(created).toMatchObject({ statusCode: 201, body: { url } });
        await call("DELETE", `/console/webhooks/${created.body.id}`, token, "acme", undefined, open);
      }
    });

    it("checks the body: known types, at least one, none twice, no other field", async () => {
      const post = (payload: object) => call("POST", "/console/webhooks", acme, "acme", payload);
      const url = "https://hooks.example.com/";
      for (const payload of [
        { url, types: [] },
        { url, types: ["name.exploded"] },
        { url, types: ["name.issued", "name.issued"] },
        { url },
        { url, types: TYPES, namespace: "acme" },
      ]) {
        expect(await post(payload)).toMatchObject({ statusCode: 400, body: { error: "invalid_request" } });
      }
    });

    it("runs the console guard first: 401 without a session, 403 for a namespace the wallet does not own", async () => {
      expect(await register("https://hooks.example.com/", "", "acme")).toMatchObject({
        statusCode: 401,
        body: { error: "unauthorized" },
      });
      const strangerToken = await signIn(app, stranger);
      expect(await register("https://hooks.example.com/", strangerToken, "acme")).toEqual({
        statusCode: 403,
        body: { error: "not_namespace_owner", namespace: "acme" },
      });
      expect(await call("GET", "/console/webhooks", strangerToken, "nowhere")).toMatchObject({
        statusCode: 404,
        body: { error: "namespace_not_found" },
      });
    });

    it("keeps namespaces apart and caps endpoints per namespace", async () => {
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await register(`https://hooks.example.com/${i}`)).body.id);
      expect(await register("https://hooks.example.com/4")).toEqual({
        statusCode: 409,
        body: {
          error: "webhook_limit_reached",
          detail: "a namespace may have at most 3 webhook endpoints",
          limit: 3,
        },
      });
      // The same wallet owns beta, but its beta session sees none of acme's endpoints and can touch none.
      expect((await call("GET", "/console/webhooks", beta, "beta")).body).toEqual({
        namespace: "beta",
        webhooks: [],
      });
      const id = made[0] as string;
      for (const [method, path] of [
        ["DELETE", `/console/webhooks/${id}`],
        ["POST", `/console/webhooks/${id}/rotate-secret`],
        ["GET", `/console/webhooks/${id}/deliveries`],
      ] as const) {
        expect(await call(method, path, beta, "beta")).toEqual({
          statusCode: 404,
          body: { error: "webhook_not_found", id },
        });
      }
      expect(await register("https://hooks.example.com/b", beta, "beta")).toMatchObject({ statusCode: 201 });
      for (const made1 of made) {
        expect(await call("DELETE", `/console/webhooks/${made1}`, acme, "acme")).toEqual({
          statusCode: 200,
          body: { ok: true, id: made1 },
        });
      }
      expect(await call("DELETE", `/console/webhooks/${id}`, acme, "acme")).toMatchObject({
        statusCode: 404,
      });
    });

    it("rotates the secret: a new one, the old one signing for 24 hours more", async () => {
      const created = (await register("https://hooks.example.com/rotate")).body;
      const rotated = await call("POST", `/console/webhooks/${created.id}/rotate-secret`, acme, "acme");
      const until = new Date(clock.getTime() + 24 * 3_600_000).toISOString();
      expect(rotated).toEqual({
        statusCode: 200,
        body: { id: created.id, secret: expect.stringMatching(/^whsec_/), previousSecretExpiresAt: until },
      });
      expect(rotated.body.secret).not.toBe(created.secret);
      const [row] = await database.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, created.id));
      expect(row).toMatchObject({ secret: rotated.body.secret, previousSecret: created.secret });
      const listed = (await call("GET", "/console/webhooks", acme, "acme")).body.webhooks;
      expect(listed).toMatchObject([{ id: created.id, previousSecretExpiresAt: until }]);
      await call("DELETE", `/console/webhooks/${created.id}`, acme, "acme");
    });

    it("shows the delivery log newest first, pages it, and retries a delivery (re-enabling its endpoint)", async () => {
      const created = (await register("https://hooks.example.com/log")).body;
      // Three changes after registration; the endpoint's cursor starts at the head, so earlier ones are not its.
      const [head] = await database.db
        .select({ cursor: webhookEndpoints.cursor })
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, created.id));
      const base = head?.cursor ?? 0;
      await database.db.transaction((tx) =>
        appendChanges(
          tx,
          [1, 2, 3].map((n) => ({
            type: "record.text_changed" as const,
            namespace: "acme",
            name: "alice.acme",
            ledger: 100 + n,
            txHash: "ab".repeat(32),
            eventId: `log-${kind}-${n}`,
            at: null,
            data: { key: "url" },
          })),
        ),
      );
      const positions = [base + 1, base + 2, base + 3];
      const later = new Date(clock.getTime() + 5000);
      for (const [i, position] of positions.entries()) {
        await database.db.insert(webhookDeliveries).values({
          id: `msg_log_${kind}_${i}`,
          endpointId: created.id,
          position,
          type: "record.text_changed",
          body: "{}",
          state: i === 0 ? "failed" : "pending",
          attempts: 1,
          nextAttemptAt: i === 0 ? null : later,
          createdAt: clock,
          finishedAt: i === 0 ? clock : null,
          reason: i === 0 ? "the receiver answered 404, which is not retried" : null,
        });
      }
      await database.db.insert(webhookAttempts).values({
        deliveryId: `msg_log_${kind}_0`,
        attemptedAt: clock,
        statusCode: 404,
        durationMs: 12,
        error: null,
        responseExcerpt: "not here",
        nextAttemptAt: null,
      });
      await database.db
        .update(webhookEndpoints)
        .set({ disabledAt: clock, disabledReason: "the receiver answered 410 Gone" })
        .where(eq(webhookEndpoints.id, created.id));

      const path = `/console/webhooks/${created.id}/deliveries`;
      const first = await call("GET", `${path}?limit=2`, acme, "acme");
      expect(first.statusCode).toBe(200);
      expect(first.body.webhook).toMatchObject({
        enabled: false,
        disabledReason: "the receiver answered 410 Gone",
      });
      expect(first.body.deliveries.map((d: { id: string }) => d.id)).toEqual([
        `msg_log_${kind}_2`,
        `msg_log_${kind}_1`,
      ]);
      expect(first.body.next).toBe(positions[1]);
      // Bad page parameters in the house wording of every query (query-params.ts).
      for (const [query, detail] of [
        ["before=junk", "before: must be a positive integer"],
        ["before=0", "before: must be a positive integer"],
        ["before=1&before=2", "before: must be given once"],
        ["limit=1e1", "limit: must be an integer from 1 to 100"],
        ["limit=2&limit=3", "limit: must be given once"],
      ]) {
        const refused = await call("GET", `${path}?${query}`, acme, "acme");
        expect({ query, status: refused.statusCode, body: refused.body }).toEqual({
          query,
          status: 400,
          body: { error: "invalid_request", detail },
        });
      }
      const second = await call("GET", `${path}?limit=2&before=${first.body.next}`, acme, "acme");
      expect(second.body.deliveries).toEqual([
        {
          id: `msg_log_${kind}_0`,
          position: positions[0],
          type: "record.text_changed",
          state: "failed",
          reason: "the receiver answered 404, which is not retried",
          createdAt: clock.toISOString(),
          finishedAt: clock.toISOString(),
          nextAttemptAt: null,
          attempts: [
            {
              attemptedAt: clock.toISOString(),
              statusCode: 404,
              durationMs: 12,
              error: null,
              responseExcerpt: "not here",
              nextAttemptAt: null,
            },
          ],
        },
      ]);
      expect(second.body.next).toBeNull();

      const retried = await call("POST", `${path}/msg_log_${kind}_0/retry`, acme, "acme");
      expect(retried).toEqual({
        statusCode: 202,
        body: {
          delivery: {
            id: `msg_log_${kind}_0`,
            position: positions[0],
            type: "record.text_changed",
            state: "pending",
            reason: null,
            createdAt: clock.toISOString(),
            finishedAt: null,
            nextAttemptAt: clock.toISOString(),
          },
          webhook: expect.objectContaining({ id: created.id, enabled: true, disabledReason: null }),
        },
      });
      // Re-enabled from the outbox head: the changes recorded while it was disabled are not its.
      const [after] = await database.db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.id, created.id));
      expect(after?.cursor).toBe(base + 3);
      expect(await call("POST", `${path}/msg_nope/retry`, acme, "acme")).toEqual({
        statusCode: 404,
        body: { error: "delivery_not_found", id: created.id, deliveryId: "msg_nope" },
      });
      await call("DELETE", `/console/webhooks/${created.id}`, acme, "acme");
      expect(
        await database.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, created.id)),
      ).toEqual([]);
    });
  });
}
