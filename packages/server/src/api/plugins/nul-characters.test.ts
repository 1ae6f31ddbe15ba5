// A NUL character (U+0000) in a path segment, a query value or a JSON body string: PostgreSQL text cannot hold one,
// so one passed to a query failed it and came back 500 internal_error (GET
// /v1/market/listings/%00x/buyers/{account}). Now 400 invalid_request naming the field; a route that refuses the
// value itself first keeps its own code; the database refusing a NUL the request did not carry stays a 500.
import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { type App, buildApp } from "../app.ts";
import { nulField } from "./errors.ts";

const ACCOUNT = "GARWRJQ372G3JCW7V57NKKG57RDQIAZTSCGQSBIYRDZ7XP3TKGEN6MXY";
const refused = (field: string) => ({
  error: "invalid_request",
  detail: `${field}: must not contain a NUL character (U+0000)`,
});

describe("NUL characters in requests", () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const escrow = Keypair.random();
    app = await buildApp({
      config: testConfig({
        MARKET_ENABLED: "true",
        ESCROW_ACCOUNT: escrow.publicKey(),
        ESCROW_SECRET: escrow.secret(),
      }),
      db: database,
      redis: null,
    });
    // A handler that passes its input straight to a query, as the listing routes do with their id.
    app.post(
      "/v1/test-echo",
      {
        schema: { body: z.object({ text: z.string(), list: z.array(z.string()).optional() }) },
        config: { limitGroup: "global", errors: [] },
      },
      async (request) => {
        for (const value of [request.body.text, ...(request.body.list ?? [])])
          await database.query("select $1::text as v", [value]);
        return { ok: true };
      },
    );
    // One that makes a NUL of its own: the database refusing it is our fault.
    app.get("/v1/test-own-nul", { config: { limitGroup: "global", errors: [] } }, async () => {
      await database.query("select $1::text as v", ["ours\u0000"]);
      return { ok: true };
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("answers a path segment with a NUL 400 invalid_request, not a 500 from the database", async () => {
    for (const url of [
      `/v1/market/listings/%00x/buyers/${ACCOUNT}`,
      `/v1/market/listings/a%00/buyers/${ACCOUNT}`,
    ]) {
      const response = await app.inject({ url });
      expect([url, response.statusCode]).toEqual([url, 400]);
      expect(response.json()).toEqual(refused("id"));
    }
    const intent = await app.inject({
      method: "POST",
      url: "/v1/market/listings/%00x/intent",
      payload: { account: ACCOUNT },
    });
    expect(intent.statusCode).toBe(400);
    expect(intent.json()).toEqual(refused("id"));
    // Without the NUL the same route answers as ever.
    const unknown = await app.inject({ url: `/v1/market/listings/x/buyers/${ACCOUNT}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: "not_found", id: "x" });
  });

  it("keeps a route's own code for a value its validation refuses", async () => {
    const history = await app.inject({ url: "/v1/market/history/%00" });
    expect(history.statusCode).toBe(400);
    expect(history.json()).toMatchObject({ error: "invalid_node" });
    const resolve = await app.inject({ url: "/v1/resolve/acme/a%00b" });
    expect(resolve.statusCode).toBe(400);
    expect(resolve.json()).toMatchObject({ error: "invalid_name" });
  });

  it("names the body field holding the NUL; a NUL the database was given by the route itself stays a 500", async () => {
    const body = await app.inject({
      method: "POST",
      url: "/v1/test-echo",
      payload: { text: "ok", list: ["fine", "bad\u0000"] },
    });
    expect(body.statusCode).toBe(400);
    expect(body.json()).toEqual(refused("list.1"));
    const fine = await app.inject({ method: "POST", url: "/v1/test-echo", payload: { text: "ok" } });
    expect(fine.statusCode).toBe(200);
    const ours = await app.inject({ url: "/v1/test-own-nul" });
    expect(ours.statusCode).toBe(500);
    expect(ours.json()).toEqual({ error: "internal_error", detail: "An internal error occurred." });
  });

  it("leaves a NUL that never reaches the database alone", async () => {
    // /v1/lookup searches only with the parts of q that are labels.
    const query = await app.inject({ url: "/v1/lookup?q=a%00b" });
    expect(query.statusCode).toBe(200);
    expect(query.json()).toEqual({ q: "a\u0000b", namespaces: [], names: [] });
  });
});

describe("nulField", () => {
  it("finds a NUL in a key or a value at any depth, without recursion", () => {
    expect(
      nulField({ params: { a: "x" }, query: { b: ["y", "z"] }, body: { c: { d: [1, null, "w"] } } }),
    ).toBe(null);
    expect(nulField({ body: { "k\u0000": 1 } })).toBe("k\u0000");
    expect(nulField({ body: "\u0000" })).toBe("body");
    let deep: unknown = "\u0000";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(nulField({ body: deep })).toBe(`${"0.".repeat(200_000 - 1)}0`);
  });
});
