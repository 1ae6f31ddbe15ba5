// The web page's files are served at fixed paths and nothing else changes: /v1 and unknown paths answer as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { type App, buildApp } from "../app.ts";

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

describe("the web page", () => {
  it("serves the page at / and its script and stylesheet", async () => {
    const page = await app.inject({ url: "/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain('<script type="module" src="/app.js">');
    const script = await app.inject({ url: "/app.js" });
    expect(script.statusCode).toBe(200);
    expect(script.headers["content-type"]).toMatch(/javascript/);
    const style = await app.inject({ url: "/style.css" });
    expect(style.statusCode).toBe(200);
    expect(style.headers["content-type"]).toMatch(/^text\/css/);
  });

  it("adds no catch-all: unknown paths keep the API's 404 body, /v1 routes are unchanged", async () => {
    const unknown = await app.inject({ url: "/no-such-page" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: "not_found" });
    const health = await app.inject({ url: "/health" });
    expect(health.json()).toEqual({ ok: true, service: "namereg" });
  });

  it("fetches nothing from another origin", async () => {
    for (const file of ["/", "/app.js", "/style.css"]) {
      const body = (await app.inject({ url: file })).body;
      expect(body).not.toMatch(/https?:\/\/(?!localhost)/);
    }
  });
});
