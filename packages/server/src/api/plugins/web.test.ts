// The web app's files are served at fixed paths, its page addresses answer with index.html, and nothing else
// changes: /v1 and unknown paths answer as before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { type App, buildApp } from "../app.ts";
import { wantsPage } from "./web.ts";

/** What Chromium and Firefox send when a page is opened. */
const BROWSER_ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

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

/** The hashed script and stylesheet index.html names. */
async function assets(): Promise<{ script: string; style: string }> {
  const html = (await app.inject({ url: "/" })).body;
  const script = html.match(/<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/)?.[1];
  const style = html.match(/<link rel="stylesheet" crossorigin href="(\/assets\/[^"]+\.css)"/)?.[1];
  if (script === undefined || style === undefined) throw new Error(`index.html names no assets:\n${html}`);
  return { script, style };
}

describe("the web app", () => {
  it("serves the page at / with a hashed script and stylesheet, cached for a year; the page is revalidated", async () => {
    const page = await app.inject({ url: "/" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["cache-control"]).toBe("no-cache");
    const { script, style } = await assets();
    const js = await app.inject({ url: script });
    expect(js.statusCode).toBe(200);
    expect(js.headers["content-type"]).toMatch(/javascript/);
    expect(js.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const css = await app.inject({ url: style });
    expect(css.statusCode).toBe(200);
    expect(css.headers["content-type"]).toMatch(/^text\/css/);
  });

  it("answers the app's own addresses with the page, so a shared link opens it", async () => {
    const index = (await app.inject({ url: "/" })).body;
    for (const url of [
      "/name/alice.acme",
      "/name/pay.alice.acme",
      "/namespace/acme",
      "/namespace/acme/webhooks",
      "/claims",
      "/market",
      "/market/acme",
      "/contract/CAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ]) {
      const page = await app.inject({ url });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers["content-type"], url).toMatch(/^text\/html/);
      expect(page.body, url).toBe(index);
    }
  });

  it("serves /favicon.ico and /favicon.svg", async () => {
    const ico = await app.inject({ url: "/favicon.ico" });
    expect(ico.statusCode).toBe(200);
    expect(ico.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    const svg = await app.inject({ url: "/favicon.svg" });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers["content-type"]).toMatch(/^image\/svg\+xml/);
  });

  it("adds no catch-all: unknown paths keep the API's 404 body, /v1 routes are unchanged", async () => {
    for (const url of ["/no-such-page", "/name", "/name/a/b", "/assets/nothing.js"]) {
      const unknown = await app.inject({ url });
      expect(unknown.statusCode, url).toBe(404);
      expect(unknown.json(), url).toMatchObject({ error: "not_found" });
    }
    const health = await app.inject({ url: "/health" });
    expect(health.json()).toEqual({ ok: true, service: "namereg" });
  });

  it("answers a browser asking for an unknown page with the app and status 404, so it shows its own page", async () => {
    const index = (await app.inject({ url: "/" })).body;
    for (const url of ["/no-such-page", "/name", "/name/a/b", "/namespace/", "/tx", "/x?y=1"]) {
      const page = await app.inject({ url, headers: { accept: BROWSER_ACCEPT } });
      expect(page.statusCode, url).toBe(404);
      expect(page.headers["content-type"], url).toBe("text/html; charset=utf-8");
      expect(page.headers["cache-control"], url).toBe("no-store");
      expect(page.body, url).toBe(index);
    }
    const head = await app.inject({
      method: "HEAD",
      url: "/no-such-page",
      headers: { accept: BROWSER_ACCEPT },
    });
    expect(head.statusCode).toBe(404);
    expect(head.headers["content-type"]).toBe("text/html; charset=utf-8");
  });

  it("keeps the JSON 404 for API paths, assets, other methods and clients that do not prefer HTML", async () => {
    const json404 = async (url: string, init: { method?: "GET" | "POST"; accept?: string }) => {
      const answer = await app.inject({
        url,
        method: init.method ?? "GET",
        headers: init.accept === undefined ? {} : { accept: init.accept },
      });
      expect(answer.statusCode, `${url} ${init.accept}`).toBe(404);
      expect(answer.json(), `${url} ${init.accept}`).toEqual({ error: "not_found" });
    };
    for (const url of [
      "/v1/nothing",
      "/v1",
      "/console/nothing",
      "/records/nothing",
      "/subnames/x/y",
      "/docs/nothing/x",
      "/assets/nothing.js",
      "/.well-known/nothing",
      "/federation/x",
      "/health/x",
    ])
      await json404(url, { accept: BROWSER_ACCEPT });
    for (const accept of [
      undefined,
      "*/*",
      "application/json",
      "application/json, text/html",
      "text/html;q=0",
    ])
      await json404("/no-such-page", { ...(accept === undefined ? {} : { accept }) });
    await json404("/no-such-page", { method: "POST", accept: BROWSER_ACCEPT });
    await json404("/name/", {});
  });

  it("tells a page request from an API request by method, path and preference", () => {
    expect(wantsPage("GET", "/nothing", BROWSER_ACCEPT)).toBe(true);
    expect(wantsPage("HEAD", "/a/b/c", "text/html")).toBe(true);
    expect(wantsPage("GET", "/v1x", "text/html")).toBe(true);
    expect(wantsPage("GET", "/v1/x", "text/html")).toBe(false);
    expect(wantsPage("GET", "/metrics", "text/html")).toBe(false);
    expect(wantsPage("GET", "/openapi.json", "text/html")).toBe(false);
    expect(wantsPage("DELETE", "/nothing", "text/html")).toBe(false);
    expect(wantsPage("GET", "/nothing", undefined)).toBe(false);
    expect(wantsPage("GET", "/nothing", "image/avif,image/webp,*/*;q=0.8")).toBe(false);
  });

  it("names no other origin (XML namespace names such as http://www.w3.org/2000/svg are not fetched)", async () => {
    const { script, style } = await assets();
    // Hosts under the names RFC 2606 reserves for documentation (example.com, .example, .test, …) are example text
    // (the webhook form's placeholder https://hooks.example.com/namereg), never an address the page reaches.
    const reserved = /^https?:\/\/([a-z0-9-]+\.)*(example\.(com|net|org)|example|test|invalid|localhost)$/i;
    for (const file of ["/", script, style]) {
      const body = (await app.inject({ url: file })).body;
      // The bundler's runtime (rolldown) names its documentation in the text of an error it throws; not fetched.
      const text = new Set(["http://www.w3.org", "https://rolldown.rs"]);
      const urls = (body.match(/https?:\/\/[a-z0-9.-]+/gi) ?? []).filter(
        (u) => !text.has(u) && !reserved.test(u),
      );
      expect(urls, file).toEqual([]);
    }
  });
});
