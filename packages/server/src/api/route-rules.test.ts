// Every public route declares its rules in its own options (route-rules.ts): the error codes it answers and the
// limit group it counts in. Checked over the routes of the built app, so a route added without them fails here
// rather than shipping undocumented or unlimited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import { type App, buildApp } from "./app.ts";
import { RESOLVE_ROUTE } from "./fast-resolve.ts";
import { type DeclaredRoute, declaredRoutes } from "./route-rules.ts";

/** The areas whose every route must declare both (docs/api.md). */
const PUBLIC = /^\/(v1|console|auth|records|subnames)(\/|$)/;

/** `METHOD url` of each public route missing a declaration, with what it lacks. */
function undeclared(routes: readonly DeclaredRoute[]): string[] {
  return routes
    .filter((r) => r.method !== "HEAD" && r.method !== "OPTIONS" && PUBLIC.test(r.url))
    .flatMap((r) => [
      ...(r.errors === undefined ? [`${r.method} ${r.url}: no errors`] : []),
      ...(r.limitGroup === undefined ? [`${r.method} ${r.url}: no limitGroup`] : []),
    ]);
}

describe("route rules declared in the routes' own options", () => {
  let database: TestDatabase;
  let app: App;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    app = await buildApp({ config: testConfig(), db: database, redis: null });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it("sees every public route (the check below is not vacuous)", () => {
    const routes = declaredRoutes(app).filter((r) => r.method !== "HEAD" && PUBLIC.test(r.url));
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        "GET /v1/resolve/:namespace/:label",
        "POST /console/tx/submit",
        "GET /auth",
        "POST /records/prepare",
        "POST /subnames/prepare",
        "POST /v1/market/listings/:id/intent",
      ]),
    );
  });

  it("every /v1, /console, /auth, /records and /subnames route declares its errors and its limit group", () => {
    expect(undeclared(declaredRoutes(app))).toEqual([]);
  });

  it("catches a route registered without them", async () => {
    const extra = await buildApp({ config: testConfig(), db: database, redis: null });
    try {
      extra.get("/v1/undeclared", async () => ({ ok: true }));
      extra.post("/console/half", { config: { limitGroup: "global" } }, async () => ({ ok: true }));
      await extra.ready();
      expect(undeclared(declaredRoutes(extra))).toEqual([
        "GET /v1/undeclared: no errors",
        "GET /v1/undeclared: no limitGroup",
        "POST /console/half: no errors",
      ]);
    } finally {
      await extra.close();
    }
  });

  it("puts the spec's costly routes in their groups and resolve in none (the fast path applies the global limit only)", () => {
    const groupOf = (method: string, url: string) =>
      declaredRoutes(app).find((r) => r.method === method && r.url === url)?.limitGroup;
    expect(groupOf("GET", RESOLVE_ROUTE)).toBe("global");
    expect(groupOf("GET", "/auth")).toBe("auth");
    expect(groupOf("POST", "/auth")).toBe("auth");
    expect(groupOf("POST", "/auth/logout")).toBe("global");
    expect(groupOf("POST", "/v1/market/listings/:id/intent")).toBe("intent");
    // The GETs that read contract state live (simulations on the RPC) share a group of their own.
    for (const url of [
      "/v1/records/:namespace/:label",
      "/v1/claim-fee",
      "/v1/claim-fee/:label",
      "/v1/claim-fee/credit/:address",
      "/v1/market/listings/:id/buyers/:account",
    ])
      expect([url, groupOf("GET", url)]).toEqual([url, "chain-read"]);
    // Every prepare and submit route, wherever it sits, is in its group.
    for (const route of declaredRoutes(app).filter((r) => r.method === "POST")) {
      if (route.url.endsWith("/prepare"))
        expect({ ...route, errors: [] }).toMatchObject({ limitGroup: "prepare" });
      if (route.url.endsWith("/submit"))
        expect({ ...route, errors: [] }).toMatchObject({ limitGroup: "submit" });
    }
  });
});
