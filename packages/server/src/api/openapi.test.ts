// The OpenAPI document: valid OpenAPI 3.1, listing every route the app serves, and identical to the committed
// docs/openapi.json — a route change without `npm run openapi` fails here.
import { readFile } from "node:fs/promises";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { type App, buildApp } from "./app.ts";
import { renderOpenApiDocument } from "./openapi-document.ts";
import { registeredRoutes } from "./plugins/openapi.ts";
import { declaredRoutes } from "./route-rules.ts";

interface ErrorResponseDoc {
  content: Record<string, { schema: { properties: { error: { enum: string[] } } } }>;
}

const COMMITTED = new URL("../../../../docs/openapi.json", import.meta.url);

describe("the OpenAPI document", () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    app = await buildApp({ config: testConfig(), db: database, redis: null });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("is served at /openapi.json and validates as OpenAPI 3.1", async () => {
    const response = await app.inject({ url: "/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("lists the spec's routes with their success and error responses", async () => {
    const { paths } = (await app.inject({ url: "/openapi.json" })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; tags: string[] }>>;
    };
    for (const [path, method] of [
      ["/v1/resolve/{namespace}/{label}", "get"],
      ["/v1/records/{namespace}/{label}", "get"],
      ["/v1/names/{namespace}/{label}/history", "get"],
      ["/v1/status", "get"],
      ["/v1/events", "get"],
      ["/v1/directory/namespaces", "get"],
      ["/v1/allocations", "get"],
      ["/v1/market/listings", "get"],
      ["/subnames/prepare", "post"],
      ["/records/submit", "post"],
      ["/console/tx/submit", "post"],
      ["/console/billing", "get"],
      ["/auth", "post"],
      ["/federation", "get"],
    ] as const) {
      const operation = paths[path]?.[method];
      expect({ path, method, found: operation !== undefined }).toEqual({ path, method, found: true });
      expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(["200", "429", "500"]));
      expect(operation?.tags).toHaveLength(1);
    }
    expect(paths["/openapi.json"]).toBeUndefined();
  });

  it("documents stellar.toml's 200 as plain text", async () => {
    const { paths } = (await app.inject({ url: "/openapi.json" })).json() as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
      >;
    };
    const ok = paths["/.well-known/stellar.toml"]?.get?.responses["200"];
    expect(Object.keys(ok?.content ?? {})).toEqual(["text/plain"]);
    const toml = await app.inject({ url: "/.well-known/stellar.toml" });
    expect([toml.statusCode, toml.headers["content-type"]]).toEqual([
      200,
      expect.stringMatching(/^text\/plain/),
    ]);
    expect(toml.body).toMatch(/^FEDERATION_SERVER="/m);
  });

  it("lists each route's own error codes by status, as every documented route declares them", async () => {
    const declared = declaredRoutes(app);
    for (const route of registeredRoutes(app)) {
      const own = declared.find((d) => d.method === route.method && d.url === route.url);
      expect({ route, declared: own?.errors !== undefined }).toEqual({ route, declared: true });
    }
    const { paths } = (await app.inject({ url: "/openapi.json" })).json() as {
      paths: Record<
        string,
        Record<
          string,
          {
            responses: Record<
              string,
              { content: Record<string, { schema: { properties: { error: { enum: string[] } } } }> }
            >;
          }
        >
      >;
    };
    const codes = (path: string, method: string, status: string) =>
      paths[path]?.[method]?.responses[status]?.content["application/json"]?.schema.properties.error.enum;
    expect(codes("/v1/resolve/{namespace}/{label}", "get", "404")).toEqual([
      "name_expired",
      "name_not_found",
    ]);
    expect(codes("/v1/resolve/{namespace}/{label}", "get", "400")).toEqual([
      "invalid_name",
      "invalid_request",
    ]);
    // As the handlers answer (docs/api.md): the record says the name is not issued, its history that it is not found.
    expect(codes("/v1/names/{namespace}/{label}", "get", "404")).toEqual([
      "name_expired",
      "name_not_issued",
      "namespace_not_found",
    ]);
    expect(codes("/v1/names/{namespace}/{label}/history", "get", "404")).toEqual(["name_not_found"]);
    expect(codes("/records/submit", "post", "400")).toEqual(
      expect.arrayContaining(["invalid_request", "transaction_not_allowed"]),
    );
    expect(codes("/console/billing", "get", "409")).toEqual(
      expect.arrayContaining(["billing_disabled", "namespace_changed"]),
    );
    expect(codes("/v1/status", "get", "503")).toEqual(["database_unavailable"]);
  });

  it("lists the code of every error answer for its status (an unknown query parameter included)", async () => {
    const { paths } = (await app.inject({ url: "/openapi.json" })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, ErrorResponseDoc | undefined> }>>;
    };
    const alice = "GA65XN2ZYGIVGOK7UVO23P5A5TQCVVIBURN4OIR3LPVCBIZ4XTEKEPJV";
    const asked: [url: string, path: string, status: number, code: string][] = [
      ["/v1/status?x=1", "/v1/status", 400, "invalid_request"],
      ["/v1/stats?x=1", "/v1/stats", 400, "invalid_request"],
      ["/v1/ledger/head?x=1", "/v1/ledger/head", 400, "invalid_request"],
      ["/v1/claim-fee?x=1", "/v1/claim-fee", 400, "invalid_request"],
      ["/v1/resolve/acme/alice?x=1", "/v1/resolve/{namespace}/{label}", 400, "invalid_request"],
      ["/v1/subnames/acme/alice?limit=17", "/v1/subnames/{namespace}/{label}", 400, "invalid_request"],
      [`/v1/directory/reverse/${alice}?x=1`, "/v1/directory/reverse/{address}", 400, "invalid_request"],
      ["/v1/directory/reverse/nope", "/v1/directory/reverse/{address}", 400, "invalid_account"],
      ["/v1/records/nosuch/alice", "/v1/records/{namespace}/{label}", 404, "namespace_not_found"],
    ];
    for (const [url, path, status, code] of asked) {
      const response = await app.inject({ url });
      expect({ url, status: response.statusCode, error: response.json().error }).toEqual({
        url,
        status,
        error: code,
      });
      const listed =
        paths[path]?.get?.responses[String(status)]?.content["application/json"]?.schema.properties.error
          .enum;
      expect({ url, listed }).toEqual({ url, listed: expect.arrayContaining([code]) });
    }
    // A failed contract read on records is 502 node_lookup_failed (docs/api.md), not 503 chain_unavailable.
    const records = paths["/v1/records/{namespace}/{label}"]?.get?.responses;
    expect(records?.["502"]?.content["application/json"]?.schema.properties.error.enum).toEqual([
      "node_lookup_failed",
    ]);
    expect(records?.["503"]?.content["application/json"]?.schema.properties.error.enum).toEqual([
      "database_unavailable",
    ]);
  });

  it("says what the routes answer: their codes, headers, formats and bounds, full URLs and real examples", async () => {
    const document = (await app.inject({ url: "/openapi.json" })).json() as {
      servers: { url: string }[];
      components: { responses: Record<string, unknown>; headers: Record<string, unknown> };
      paths: Record<
        string,
        Record<string, { responses: Record<string, ErrorResponseDoc & { headers?: object }> }>
      >;
    };
    const enumOf = (path: string, status: string) =>
      document.paths[path]?.get?.responses[status]?.content["application/json"]?.schema.properties.error.enum;
    expect(enumOf("/v1/chain-address/{namespace}/{name}/{network}", "404")).toContain("namespace_not_found");
    for (const path of [
      "/v1/subname-policy/{namespace}",
      "/v1/subnames/{namespace}/{label}",
      "/v1/subnames/{namespace}/{label}/{child}",
    ]) {
      expect({ path, codes: enumOf(path, "409") }).toEqual({ path, codes: ["subnames_unsupported"] });
      expect({ path, codes: enumOf(path, "503") }).toEqual({
        path,
        codes: ["chain_unavailable", "database_unavailable"],
      });
    }
    expect(Object.keys(document.components.responses)).toEqual([
      "InvalidRequest",
      "NotFound",
      "MethodNotAllowed",
      "RateLimited",
    ]);
    const resolve = document.paths["/v1/resolve/{namespace}/{label}"]?.get?.responses;
    expect(Object.keys(resolve?.["200"]?.headers ?? {})).toEqual(
      expect.arrayContaining(["Cache-Control", "RateLimit-Limit", "Access-Control-Allow-Origin"]),
    );
    expect(Object.keys(resolve?.["429"]?.headers ?? {})).toContain("Retry-After");
    const console = document.paths["/console/billing"]?.get?.responses["200"];
    expect(Object.keys(console?.headers ?? {})).not.toContain("Access-Control-Allow-Origin");
    // The running server's public URL, so /docs shows full URLs (testConfig's PUBLIC_URL).
    expect(document.servers.map((s) => s.url)).toEqual([testConfig().publicUrl]);
    const text = JSON.stringify(document);
    const schemaOf = (path: string) =>
      JSON.stringify(
        (document.paths[path]?.get?.responses["200"] as { content: Record<string, { schema: unknown }> })
          ?.content["application/json"]?.schema,
      );
    expect(schemaOf("/v1/allocations")).toMatch(/"deadline":\{"type":"string","format":"date-time"/);
    expect(schemaOf("/v1/allocations")).toMatch(
      /"awardedAt":\{"anyOf":\[\{"type":"string","format":"date-time"/,
    );
    expect(schemaOf("/v1/events")).toMatch(/"ledger":\{"type":"integer","minimum":0/);
    expect(schemaOf("/v1/coverage")).toMatch(/"fromLedger":\{"type":"integer","minimum":0/);
    expect(schemaOf("/v1/claim-fee/credit/{address}")).toMatch(/"bondAmount":\{[^}]*"pattern":"\^\\\\d\+\$"/);
    expect(text).not.toContain("Default Response");
  });

  it("documents every route the app registers", async () => {
    const { paths } = (await app.inject({ url: "/openapi.json" })).json() as {
      paths: Record<string, object>;
    };
    const documented = new Set(Object.keys(paths).map((p) => p.replace(/\{(\w+)\}/g, ":$1")));
    const served = registeredRoutes(app);
    expect(served.length).toBeGreaterThan(40);
    expect(served.filter((r) => !documented.has(r.url))).toEqual([]);
  });

  it("titles every operation with a one-line summary", async () => {
    const { paths } = (await app.inject({ url: "/openapi.json" })).json() as {
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    const untitled = Object.entries(paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        .filter(([, op]) => typeof op.summary !== "string" || op.summary.length < 8)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(untitled).toEqual([]);
    expect(paths["/v1/resolve/{namespace}/{label}"]?.get?.summary).toBe(
      "Resolve a name to the account to pay",
    );
  });

  it("takes each operation's summary from the route's own schema, beside its handler", async () => {
    const served = registeredRoutes(app);
    expect(served.filter((r) => r.summary === undefined).map((r) => `${r.method} ${r.url}`)).toEqual([]);
    const { paths } = (await app.inject({ url: "/openapi.json" })).json() as {
      paths: Record<string, Record<string, { summary?: string }>>;
    };
    for (const route of served) {
      const path = route.url.replace(/:(\w+)/g, "{$1}");
      expect(paths[path]?.[route.method.toLowerCase()]?.summary, `${route.method} ${route.url}`).toBe(
        route.summary,
      );
    }
  });

  it("matches the committed docs/openapi.json (run `npm run openapi` after changing a route)", async () => {
    const committed = await readFile(COMMITTED, "utf8").catch(() => "");
    const generated = await renderOpenApiDocument();
    expect(committed === generated, "docs/openapi.json is stale: run `npm run openapi` and commit it").toBe(
      true,
    );
  });

  it("serves the interactive reference at /docs from the package, with no external script", async () => {
    expect((await app.inject({ url: "/docs" })).headers.location).toBe("/docs/");
    const page = await app.inject({ url: "/docs/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    const scripts = [...page.body.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    // Relative to /docs/ or under it: nothing from another host.
    for (const src of scripts) expect(src).not.toMatch(/^(https?:)?\/\//);
    const bundle = await app.inject({ url: new URL(scripts[0] as string, "http://x/docs/").pathname });
    expect(bundle.statusCode).toBe(200);
    // Our title, and none of Scalar's hosted-service promotions (Deploy, Generate SDK, Ask AI, MCP).
    expect(page.body).toContain("<title>namereg API reference</title>");
    expect(page.body).toMatch(/"showDeveloperTools": "never"/);
    expect(page.body).toMatch(/"agent": \{\s*"disabled": true\s*\}/);
    expect(page.body).toMatch(/"mcp": \{\s*"disabled": true\s*\}/);
  });
});
