// POST /v1/resolve and POST /v1/reverse over the indexed demo, on both database kinds: every item is exactly what
// the single route answers for it (names, subnames, expired, reclaimed, unknown, invalid, duplicates), the
// misses of a batch are one statement, 0 or 101 items are refused, and a batch counts against the global limit
// by its size.
import { demoKeypair } from "@namereg/devnet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEATURE_DATABASE_KINDS } from "../../../../test/fixtures/database.ts";
import { type IndexedDemo, indexedDemo } from "../../../../test/fixtures/demo.ts";
import { countStatements } from "../../../../test/fixtures/statements.ts";
import type { App } from "../../app.ts";
import { LABEL_RULE } from "../path-params.ts";

const pk = (role: Parameters<typeof demoKeypair>[0]) => demoKeypair(role).publicKey();

/** The single route's URL for a batch item, when it has one (`label.namespace` or `child.label.namespace`). */
function singleUrl(name: string): string | null {
  const parts = name.split(".");
  if (parts.length < 2 || parts.length > 3) return null;
  const namespace = parts.pop() as string;
  return `/v1/resolve/${encodeURIComponent(namespace)}/${encodeURIComponent(parts.join("."))}`;
}

describe.each(FEATURE_DATABASE_KINDS)("batch reads on %s", (kind) => {
  let demo: IndexedDemo;
  let app: App;

  beforeAll(async () => {
    demo = await indexedDemo(kind);
    app = await demo.appAt();
  });
  afterAll(async () => {
    await demo?.close();
  });

  const post = async (url: string, payload: unknown, on: App = app) => {
    const response = await on.inject({ method: "POST", url, payload: payload as object });
    return { statusCode: response.statusCode, body: response.json(), headers: response.headers };
  };

  /** What the single route answers for `name`, as a batch item. */
  const singleItem = async (name: string) => {
    const url = singleUrl(name);
    if (url === null) return undefined;
    const response = await app.inject({ url });
    const body = response.json() as Record<string, unknown>;
    if (response.statusCode === 200) return body;
    return {
      name: body.name ?? name,
      error: body.error,
      ...(body.detail === undefined ? {} : { detail: body.detail }),
    };
  };

  describe("POST /v1/resolve", () => {
    const NAMES = [
      "alice.acme",
      "Bob.ACME",
      "old.acme", // expired
      "gone.acme", // reclaimed
      "nobody.acme",
      "alice.nowhere",
      "pay.alice.acme", // an active subname
      "Pay.Alice.acme",
      "old.alice.acme", // a removed subname
      "nope.alice.acme",
      "carol.plain",
      "al_ice.acme",
      "alice.-acme",
      "pay..acme",
      "alice.acme", // a duplicate
    ];

    it("answers every item exactly as the single route does, in the request's order", async () => {
      const { statusCode, body, headers } = await post("/v1/resolve", { names: NAMES });
      expect(statusCode).toBe(200);
      expect(headers["content-type"]).toBe("application/json; charset=utf-8");
      const results = (body as { results: unknown[] }).results;
      expect(results).toHaveLength(NAMES.length);
      for (const [i, name] of NAMES.entries()) {
        expect({ name, item: results[i] }).toEqual({ name, item: await singleItem(name) });
      }
      // And what those answers are (the comparison alone would pass were both wrong alike).
      const bob = results[1] as Record<string, unknown>;
      expect(results[0]).toMatchObject({ name: "alice.acme", account: pk("alice"), storage: "live" });
      expect(bob).toMatchObject({ name: "bob.acme", account: pk("bob"), ownership: "expiring" });
      expect(results.slice(2, 6)).toEqual([
        { name: "old.acme", error: "name_expired" },
        { name: "gone.acme", error: "name_not_found" },
        { name: "nobody.acme", error: "name_not_found" },
        { name: "alice.nowhere", error: "name_not_found" },
      ]);
      expect(results[6]).toEqual({
        name: "pay.alice.acme",
        account: pk("alice"),
        ownership: "revocable",
        storage: "live",
        expires_at: null,
        ledger: expect.any(Number),
      });
      expect(results[7]).toEqual(results[6]);
      expect(results.slice(8, 10)).toEqual([
        { name: "old.alice.acme", error: "name_not_found" },
        { name: "nope.alice.acme", error: "name_not_found" },
      ]);
      expect(results[10]).toMatchObject({ name: "carol.plain", account: pk("carol") });
      expect(results.slice(11, 14)).toEqual([
        { name: "al_ice.acme", error: "invalid_name", detail: `label: ${LABEL_RULE}` },
        { name: "alice.-acme", error: "invalid_name", detail: `namespace: ${LABEL_RULE}` },
        {
          name: "pay..acme",
          error: "invalid_name",
          detail: "label: must be label or child.label, each a label (A-Z is lower-cased)",
        },
      ]);
      expect(results[14]).toEqual(results[0]);
    });

    it("answers a name of one part or of four as invalid_name, the batch's rule", async () => {
      const rule =
        "name: must be label.namespace or child.label.namespace, each part a label (A-Z is lower-cased)";
      expect((await post("/v1/resolve", { names: ["acme", "a.b.c.d", ""] })).body).toEqual({
        results: [
          { name: "acme", error: "invalid_name", detail: rule },
          { name: "a.b.c.d", error: "invalid_name", detail: rule },
          { name: "", error: "invalid_name", detail: rule },
        ],
      });
    });

    it("reads the names a batch misses in one statement", async () => {
      const fresh = await demo.appAt();
      const counter = countStatements(demo.database.db, "= any(");
      try {
        const names = ["alice", "bob", "old", "gone", "carol", "nobody", "x1", "x2"].map((l) => `${l}.acme`);
        const { body } = await post("/v1/resolve", { names }, fresh);
        expect((body as { results: unknown[] }).results).toHaveLength(names.length);
        expect(counter.count()).toBe(1);
        // Answered from the cache the second time: no statement at all.
        await post("/v1/resolve", { names }, fresh);
        expect(counter.count()).toBe(1);
      } finally {
        counter.restore();
      }
    });

    it("refuses 0 or 101 names, and a body that is not a list of strings", async () => {
      const refused = (detail: string) => ({ error: "invalid_request", detail });
      expect(await post("/v1/resolve", { names: [] })).toMatchObject({
        statusCode: 400,
        body: refused("names: must list 1 to 100 names"),
      });
      const many = Array.from({ length: 101 }, (_, i) => `n${i}.acme`);
      expect(await post("/v1/resolve", { names: many })).toMatchObject({
        statusCode: 400,
        body: refused("names: must list 1 to 100 names"),
      });
      expect((await post("/v1/resolve", { names: many.slice(0, 100) })).statusCode).toBe(200);
      expect(await post("/v1/resolve", { names: [1] })).toMatchObject({ statusCode: 400 });
      expect(await post("/v1/resolve", {})).toMatchObject({ statusCode: 400 });
      expect(await post("/v1/resolve", { names: ["alice.acme"], more: 1 })).toMatchObject({
        statusCode: 400,
        body: { error: "invalid_request" },
      });
    });

    it("counts one request per 10 names against the global limit", async () => {
      const limited = await demo.appAt({ env: { RATE_LIMIT_PER_MINUTE: "25" } });
      const names = Array.from({ length: 100 }, (_, i) => `n${i}.acme`);
      const first = await post("/v1/resolve", { names }, limited);
      expect(first.statusCode).toBe(200);
      expect(first.headers["ratelimit-remaining"]).toBe("15");
      // 11 names count as 2.
      const second = await post("/v1/resolve", { names: names.slice(0, 11) }, limited);
      expect(second.headers["ratelimit-remaining"]).toBe("13");
      expect((await post("/v1/resolve", { names }, limited)).headers["ratelimit-remaining"]).toBe("3");
      const over = await post("/v1/resolve", { names }, limited);
      expect(over.statusCode).toBe(429);
      expect(over.body).toEqual({
        error: "rate_limited",
        detail: "a batch of 100 counts as 10 requests (one per 10 items) against the limit of 25 a minute",
      });
      expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    });
  });

  describe("POST /v1/reverse", () => {
    it("answers each address by the single route's rule, null where it holds no name", async () => {
      const addresses = [
        pk("alice"),
        pk("bob"),
        demo.chain.contracts.registry,
        "GNOTANADDRESS",
        pk("carol"),
        pk("alice"),
        pk("alice").toLowerCase(),
      ];
      const { statusCode, body } = await post("/v1/reverse", { addresses });
      expect(statusCode).toBe(200);
      const detail = "address: must be a Stellar account (G…) or contract (C…) address";
      expect(body).toEqual({
        results: [
          { address: pk("alice"), name: "alice.acme" },
          { address: pk("bob"), name: "bob.acme" },
          { address: demo.chain.contracts.registry, name: null },
          { address: "GNOTANADDRESS", error: "bad_address", detail },
          { address: pk("carol"), name: "carol.plain" },
          { address: pk("alice"), name: "alice.acme" },
          { address: pk("alice").toLowerCase(), error: "bad_address", detail },
        ],
      });
      for (const item of (body as { results: { address: string; name?: string | null }[] }).results) {
        const single = await app.inject({ url: `/v1/reverse/${item.address}` });
        if (item.name === undefined) expect(single.statusCode).toBe(400);
        else if (item.name === null)
          expect(single.json()).toEqual({ error: "no_name", address: item.address });
        else expect(single.json()).toEqual({ name: item.name });
      }
    });

    it("refuses 0 or 101 addresses", async () => {
      expect(await post("/v1/reverse", { addresses: [] })).toMatchObject({
        statusCode: 400,
        body: { error: "invalid_request", detail: "addresses: must list 1 to 100 addresses" },
      });
      const many = Array.from({ length: 101 }, () => pk("alice"));
      expect((await post("/v1/reverse", { addresses: many })).statusCode).toBe(400);
      expect((await post("/v1/reverse", { addresses: many.slice(1) })).statusCode).toBe(200);
    });
  });
});
