// The browser security headers (web-headers.ts): on every answer of the web app and the API reference, with the
// policy each needs; on no answer of the JSON API, whose headers (CORS included) stay exactly what they were.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { type App, buildApp } from "../app.ts";
import { PUBLIC_GET_HEADERS } from "./cors.ts";
import { inlineScriptHashes } from "./web-headers.ts";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const RPC = "https://rpc.example.org/soroban/rpc";

/** Every header helmet adds, by name: none of them may appear on a JSON API answer. */
const BROWSER_HEADERS = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "strict-transport-security",
  "x-content-type-options",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

/** The app's policy over plain http with PUBLIC_RPC_URL = RPC, directive by directive. */
const APP_POLICY = [
  "default-src 'self'",
  "script-src-attr 'none'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self' https://rpc.example.org",
];

const directives = (csp: unknown) => String(csp).split(";");

let database: TestDatabase;
let app: App;
let https: App;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
  app = await buildApp({ config: testConfig({ PUBLIC_RPC_URL: RPC }), db: database, redis: null });
  https = await buildApp({
    config: testConfig({ PUBLIC_URL: "https://names.example.com" }),
    db: database,
    redis: null,
  });
});
afterAll(async () => {
  await app?.close();
  await https?.close();
  await database?.close();
});

/** The hashed script index.html names. */
async function script(): Promise<string> {
  const html = (await app.inject({ url: "/" })).body;
  const src = html.match(/<script type="module" crossorigin src="(\/assets\/[^"]+\.js)"/)?.[1];
  if (src === undefined) throw new Error(`index.html names no script:\n${html}`);
  return src;
}

describe("the web app's security headers", () => {
  it("are on /, a page address, a file under /assets, the icons and the not-found page", async () => {
    const urls = [
      "/",
      "/namespace/acme",
      "/name/alice.acme",
      await script(),
      "/favicon.svg",
      "/no-such-page",
    ];
    for (const url of urls) {
      const answer = await app.inject({ url, headers: { accept: BROWSER_ACCEPT } });
      expect(answer.statusCode, url).toBe(url === "/no-such-page" ? 404 : 200);
      expect(directives(answer.headers["content-security-policy"]), url).toEqual(APP_POLICY);
      expect(answer.headers["x-content-type-options"], url).toBe("nosniff");
      expect(answer.headers["x-frame-options"], url).toBe("DENY");
      expect(answer.headers["referrer-policy"], url).toBe("no-referrer");
      expect(answer.headers["cross-origin-opener-policy"], url).toBe("same-origin-allow-popups");
      // Plain http (the test's PUBLIC_URL, as under `namereg dev`): nothing to pin or upgrade to.
      expect(answer.headers["strict-transport-security"], url).toBeUndefined();
    }
  });

  it("without PUBLIC_RPC_URL, the page may connect to its own origin alone", async () => {
    const page = await https.inject({ url: "/" });
    expect(directives(page.headers["content-security-policy"])).toContain("connect-src 'self'");
  });

  it("over https (PUBLIC_URL): HSTS for a year without subdomains, and insecure requests upgraded", async () => {
    for (const url of ["/", "/claims", "/docs/"]) {
      const answer = await https.inject({ url });
      expect(answer.headers["strict-transport-security"], url).toBe("max-age=31536000");
      expect(directives(answer.headers["content-security-policy"]), url).toContain(
        "upgrade-insecure-requests",
      );
    }
  });
});

describe("the API reference's security headers", () => {
  it("allow /docs/'s one inline script by its hash, Scalar's injected styles, and the API at PUBLIC_URL", async () => {
    const docs = await app.inject({ url: "/docs/" });
    expect(docs.statusCode).toBe(200);
    const inline = [...docs.body.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)].map(
      (m) =>
        `'sha256-${createHash("sha256")
          .update(m[1] ?? "")
          .digest("base64")}'`,
    );
    expect(inline).toHaveLength(1);
    expect(directives(docs.headers["content-security-policy"])).toEqual([
      ...APP_POLICY.slice(0, 7),
      `script-src 'self' ${inline[0]}`,
      "style-src 'self' 'unsafe-inline'",
      "connect-src 'self' http://localhost",
    ]);
    expect(docs.headers["x-frame-options"]).toBe("DENY");
    expect(docs.headers["x-content-type-options"]).toBe("nosniff");
    for (const url of ["/docs", "/docs/js/scalar.js"]) {
      const answer = await app.inject({ url });
      expect(directives(answer.headers["content-security-policy"]), url).toContain("frame-ancestors 'none'");
      expect(directives(answer.headers["content-security-policy"]), url).toContain("script-src 'self'");
    }
  });

  it("hash each inline script, never one loaded from a file", () => {
    const page =
      '<script src="js/a.js"></script><script>go()</script><script type="module">\nrun()\n</script>';
    const sha = (text: string) => `sha256-${createHash("sha256").update(text).digest("base64")}`;
    expect(inlineScriptHashes(page)).toEqual([sha("go()"), sha("\nrun()\n")]);
    expect(inlineScriptHashes("<p>no script</p>")).toEqual([]);
  });
});

describe("the JSON API", () => {
  it("carries none of them, and its CORS headers are what they were", async () => {
    for (const url of ["/v1/stats", "/v1/namespaces", "/v1/nothing", "/health", "/openapi.json"]) {
      const answer = await app.inject({
        url,
        headers: { accept: BROWSER_ACCEPT, origin: "https://x.example" },
      });
      expect(
        BROWSER_HEADERS.filter((h) => answer.headers[h] !== undefined),
        url,
      ).toEqual([]);
      if (url !== "/openapi.json")
        for (const [name, value] of Object.entries(PUBLIC_GET_HEADERS))
          expect(answer.headers[name], `${url} ${name}`).toBe(value);
    }
    const preflight = await app.inject({
      method: "OPTIONS",
      url: "/v1/stats",
      headers: { origin: "https://wallet.example", "access-control-request-method": "GET" },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers["access-control-allow-origin"]).toBe("*");
    expect(preflight.headers["access-control-allow-methods"]).toBe("GET, HEAD, POST");
    expect(BROWSER_HEADERS.filter((h) => preflight.headers[h] !== undefined)).toEqual([]);
  });
});
