import type { FastifyBaseLogger } from "fastify";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testConfig } from "../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import type { Env } from "../config/index.ts";
import { type App, buildApp } from "./app.ts";
import { noStore } from "./cache.ts";
import { ApiError } from "./errors.ts";

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  await database?.close();
});

async function appWith(
  env: Env = {},
  extra: { logger?: FastifyBaseLogger; bodyLimit?: number } = {},
): Promise<App> {
  return buildApp({ config: testConfig(env), db: database, redis: null, ...extra });
}

describe("/health", () => {
  it("answers { ok: true, service } with CORS and no caching", async () => {
    const app = await appWith();
    const response = await app.inject({
      method: "GET",
      url: "/health",
      headers: { origin: "https://wallet.example" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ok: true, service: "namereg" });
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["cache-control"]).toBe("no-store");
    await app.close();
  });

  it("names the configured service", async () => {
    const app = await appWith({ SERVICE_NAME: "acme-names" });
    expect((await app.inject({ url: "/health" })).json()).toEqual({ ok: true, service: "acme-names" });
    await app.close();
  });
});

describe("CORS", () => {
  let app: App;
  beforeAll(async () => {
    app = await appWith();
    app.get("/console/x", async () => ({ private: true }));
    app.get("/v1x", async () => ({ notPublic: true }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it("answers a preflight on /v1/* for any origin", async () => {
    const response = await app.inject({
      method: "OPTIONS",
      url: "/v1/x",
      headers: { origin: "https://wallet.example", "access-control-request-method": "GET" },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
    expect(response.headers["access-control-allow-methods"]).toContain("GET");
    expect(response.headers["access-control-max-age"]).toBe("86400");
  });

  it("lets scripts read the rate-limit headers", async () => {
    const response = await app.inject({ url: "/health", headers: { origin: "https://wallet.example" } });
    expect(response.headers["access-control-expose-headers"]).toContain("RateLimit-Remaining");
  });

  it("sends no CORS headers on /console/*, nor for its preflight", async () => {
    const get = await app.inject({ url: "/console/x", headers: { origin: "https://evil.example" } });
    expect(get.statusCode).toBe(200);
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/console/x",
      headers: { origin: "https://evil.example", "access-control-request-method": "GET" },
    });
    expect(preflight.statusCode).toBeGreaterThanOrEqual(400);
    for (const response of [get, preflight]) {
      expect(Object.keys(response.headers).filter((h) => h.startsWith("access-control-"))).toEqual([]);
    }
  });

  it("covers a prefix and what is below it, not look-alike paths", async () => {
    const response = await app.inject({ url: "/v1x", headers: { origin: "https://wallet.example" } });
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("errors", () => {
  let app: App;
  const logLines: string[] = [];
  beforeAll(async () => {
    const logger = pino({ level: "error" }, { write: (line: string) => void logLines.push(line) });
    app = await appWith({}, { logger, bodyLimit: 1024 });
    app.get("/v1/teapot", async () => {
      throw new ApiError("name_not_found", { name: "alice.acme", error: "ignored" });
    });
    app.get("/v1/items/:id", async () => ({ ok: true }));
    app.get(
      "/v1/list",
      { schema: { querystring: z.object({ limit: z.coerce.number().int().min(1).max(16) }) } },
      async (request) => ({ limit: request.query.limit }),
    );
    app.get(
      "/v1/fixture-history/:node",
      {
        schema: { params: z.object({ node: z.string().regex(/^[0-9a-f]{64}$/) }) },
        config: { validationCode: "invalid_node" },
      },
      async () => ({ ok: true }),
    );
    app.get(
      "/v1/fixture-reverse/:account",
      {
        schema: {
          params: z.object({ account: z.string().startsWith("G") }),
          querystring: z.object({ limit: z.coerce.number().max(20).optional() }),
        },
        config: { validationCode: (field) => (field === "account" ? "invalid_account" : undefined) },
      },
      async () => ({ ok: true }),
    );
    app.post(
      "/v1/echo",
      { schema: { body: z.object({ name: z.string() }) } },
      async (request) => request.body,
    );
    app.get("/v1/db-failure", async () => database.query("select secret_column from missing_table_xyz"));
    app.get("/v1/upstream-failure", async () => {
      throw Object.assign(new Error("RPC said 404 for getLedgerEntries at http://10.0.0.1"), {
        statusCode: 404,
      });
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  it("answers unknown routes with 404 { error: not_found }", async () => {
    const response = await app.inject({ url: "/v1/nope" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: "not_found" });
    expect((await app.inject({ method: "DELETE", url: "/elsewhere" })).json()).toEqual({
      error: "not_found",
    });
  });

  it("answers a known path with the wrong method with 405 and Allow", async () => {
    const response = await app.inject({ method: "POST", url: "/health" });
    expect(response.statusCode).toBe(405);
    expect(response.json()).toEqual({ error: "method_not_allowed" });
    expect(response.headers.allow).toBe("GET, HEAD");
  });

  it("sends an ApiError's code, catalogue status and extra fields", async () => {
    const response = await app.inject({ url: "/v1/teapot" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: "name_not_found", name: "alice.acme" });
  });

  it("turns validation failures into 400 invalid_request naming the field", async () => {
    const response = await app.inject({ url: "/v1/list?limit=99" });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toEqual({ error: "invalid_request", detail: expect.stringMatching(/^limit: /) });
    expect((await app.inject({ url: "/v1/list?limit=3" })).json()).toEqual({ limit: 3 });
  });

  it("lets a route name its own code for invalid input", async () => {
    const node = await app.inject({ url: "/v1/fixture-history/xyz" });
    expect(node.statusCode).toBe(400);
    expect(node.json()).toEqual({ error: "invalid_node", detail: expect.stringMatching(/^node: /) });

    const account = await app.inject({ url: "/v1/fixture-reverse/alice" });
    expect(account.json()).toMatchObject({ error: "invalid_account" });
    const limit = await app.inject({ url: "/v1/fixture-reverse/GABC?limit=500" });
    expect(limit.json()).toEqual({ error: "invalid_request", detail: expect.stringMatching(/^limit: /) });
  });

  it("answers a body that fails its schema with invalid_request", async () => {
    const response = await app.inject({ method: "POST", url: "/v1/echo", payload: { name: 5 } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: "invalid_request", detail: expect.stringMatching(/^name: /) });
  });

  it("answers malformed JSON with 400 invalid_request", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/echo",
      headers: { "content-type": "application/json" },
      payload: '{"name": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: "invalid_request",
      detail: "The request body is not valid JSON.",
    });
  });

  it("answers a body over the limit with 413 payload_too_large", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/echo",
      payload: { name: "x".repeat(2048) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: "payload_too_large" });
  });

  it("answers an unknown content type with 415", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/v1/echo",
      headers: { "content-type": "application/x-whatever" },
      payload: "name=x",
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: "unsupported_media_type" });
  });

  it("answers a malformed URL with 400 invalid_request", async () => {
    const response = await app.inject({ url: "/v1/items/%zz" });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid_request" });
  });

  it("hides a database failure behind a generic 500 and logs the real error", async () => {
    const response = await app.inject({ url: "/v1/db-failure" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: "internal_error", detail: "An internal error occurred." });
    for (const leak of [
      "missing_table_xyz",
      "secret_column",
      "select",
      "relation",
      "does not exist",
      "at ",
    ]) {
      expect(response.body.toLowerCase()).not.toContain(leak);
    }
    expect(logLines.join("\n")).toContain("missing_table_xyz");
  });

  it("does not trust a status code on errors that are not Fastify's", async () => {
    const response = await app.inject({ url: "/v1/upstream-failure" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: "internal_error", detail: "An internal error occurred." });
  });
});

describe("noStore", () => {
  it("marks a reply as not to be cached", async () => {
    const app = await appWith();
    app.get("/v1/subnames", async (_request, reply) => {
      noStore(reply);
      return [];
    });
    expect((await app.inject({ url: "/v1/subnames" })).headers["cache-control"]).toBe("no-store");
    await app.close();
  });
});

describe("CORS for wallet web apps", () => {
  let app: App;
  beforeAll(async () => {
    app = await appWith();
  });
  afterAll(async () => {
    await app.close();
  });
  const preflight = (url: string, headers = "content-type") =>
    app.inject({
      method: "OPTIONS",
      url,
      headers: {
        origin: "https://wallet.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": headers,
      },
    });

  it.each(["/auth", "/auth/logout", "/records/prepare", "/records/submit", "/subnames/prepare"])(
    "answers the preflight of %s for any origin, without credentials",
    async (url) => {
      const response = await preflight(url, "authorization,content-type");
      expect(response.statusCode).toBe(204);
      expect(response.headers["access-control-allow-origin"]).toBe("*");
      expect(response.headers["access-control-allow-methods"]).toContain("POST");
      expect(String(response.headers["access-control-allow-headers"]).toLowerCase()).toBe(
        "authorization, content-type",
      );
      expect(response.headers["access-control-allow-credentials"]).toBeUndefined();
    },
  );

  it("puts the header on the actual answer too", async () => {
    const response = await app.inject({
      method: "POST",
      url: "/records/submit",
      headers: { origin: "https://wallet.example", "content-type": "application/json" },
      payload: {},
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers["access-control-allow-origin"]).toBe("*");
  });

  it("keeps the console closed to other origins", async () => {
    const response = await preflight("/console/tx/submit");
    expect(response.headers["access-control-allow-origin"]).toBeUndefined();
  });
});
