// The caching policy (docs/api.md, Conventions, "Caching"): every answer carries `Cache-Control: no-store`,
// errors included, checked over a real HTTP connection for each route family and for the answers that come
// before a route runs (unknown path, wrong content type, the market switch, the rate limit).
import { connect } from "node:net";
import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../test/fixtures/database.ts";
import type { Env } from "../config/index.ts";
import { type App, buildApp } from "./app.ts";

const escrow = Keypair.random();
const MARKET_ON: Env = {
  MARKET_ENABLED: "true",
  ESCROW_ACCOUNT: escrow.publicKey(),
  ESCROW_SECRET: escrow.secret(),
};
const NODE = "ab".repeat(32);
const ACCOUNT = Keypair.random().publicKey();

interface Answer {
  readonly status: number;
  readonly error: unknown;
  readonly cacheControl: string | null;
}

let database: TestDatabase;
const apps: App[] = [];
beforeAll(async () => {
  database = await createTestDatabase("pglite");
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await database?.close();
});

/** An app listening on a free port of 127.0.0.1, closed after the file; returns its base URL. */
async function serve(env: Env): Promise<string> {
  const app = await buildApp({ config: testConfig(env), db: database, redis: null });
  apps.push(app);
  return app.listen({ host: "127.0.0.1", port: 0 });
}

async function call(
  base: string,
  method: string,
  path: string,
  body?: { type: string; text: string },
): Promise<Answer> {
  const response = await fetch(base + path, {
    method,
    ...(body === undefined ? {} : { headers: { "content-type": body.type }, body: body.text }),
  });
  const text = await response.text();
  const parsed = text === "" ? null : (JSON.parse(text) as { error?: unknown });
  return {
    status: response.status,
    error: parsed?.error ?? null,
    cacheControl: response.headers.get("cache-control"),
  };
}

const json = (value: unknown) => ({ type: "application/json", text: JSON.stringify(value) });

describe("Cache-Control: no-store on every answer", () => {
  let base: string;
  beforeAll(async () => {
    base = await serve(MARKET_ON);
  });

  it("on the marketplace routes, successes and errors", async () => {
    const cases: [string, string, ReturnType<typeof json> | undefined, number, string | null][] = [
      ["GET", "/v1/market/listings", undefined, 200, null],
      ["GET", `/v1/market/history/${NODE}`, undefined, 200, null],
      ["GET", "/v1/market/history/abc", undefined, 400, "invalid_node"],
      ["GET", "/v1/market/listings?page=2", undefined, 400, "invalid_request"],
      ["POST", "/v1/market/listings/x/intent", json({ account: "bad" }), 400, "invalid_account"],
      ["POST", "/v1/market/listings/x/intent", json({ account: ACCOUNT }), 409, "listing_not_active"],
      [
        "POST",
        "/v1/market/listings/x/intent",
        { type: "text/plain", text: "hi" },
        415,
        "unsupported_media_type",
      ],
    ];
    const answers = [];
    for (const [method, path, body] of cases) answers.push(await call(base, method, path, body));
    expect(answers).toEqual(
      cases.map(([, , , status, error]) => ({ status, error, cacheControl: "no-store" })),
    );
  });

  it("on the other /v1 route families and outside any route", async () => {
    const cases: [string, number, string | null][] = [
      ["/v1/resolve/acme/alice", 404, "name_not_found"],
      ["/v1/names/acme/alice", 404, "namespace_not_found"],
      ["/v1/names/acme/alice/history", 404, "name_not_found"],
      [`/v1/reverse/${ACCOUNT}`, 404, "no_name"],
      [`/v1/names/by-holder/${ACCOUNT}`, 200, null],
      ["/v1/namespaces", 200, null],
      ["/v1/namespaces/acme", 404, "namespace_not_found"],
      ["/v1/lookup?q=acme", 200, null],
      ["/v1/showcase", 200, null],
      ["/v1/directory/namespaces", 200, null],
      ["/v1/events", 200, null],
      ["/v1/status", 200, null],
      ["/v1/no-such-route", 404, "not_found"],
    ];
    const answers = [];
    for (const [path] of cases) answers.push(await call(base, "GET", path));
    expect(answers).toEqual(cases.map(([, status, error]) => ({ status, error, cacheControl: "no-store" })));
  });

  it("when the marketplace is off (409 market_disabled)", async () => {
    const off = await serve({});
    expect(await call(off, "GET", "/v1/market/listings")).toEqual({
      status: 409,
      error: "market_disabled",
      cacheControl: "no-store",
    });
    expect(await call(off, "POST", "/v1/market/listings/x/intent", json({ account: ACCOUNT }))).toEqual({
      status: 409,
      error: "market_disabled",
      cacheControl: "no-store",
    });
  });

  it("before routing: a malformed URL, and a request that is not valid HTTP", async () => {
    expect(await call(base, "GET", "/v1/namespaces/%E0%A4%A")).toEqual({
      status: 400,
      error: "invalid_request",
      cacheControl: "no-store",
    });
    const { port } = new URL(base);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), "127.0.0.1", () => {
        socket.write("GET /v1/status HTTP/1.1\r\nHost: x\r\nBad Header: y\r\n\r\n");
      });
      let text = "";
      socket.on("data", (chunk) => {
        text += chunk.toString();
      });
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    const [head = ""] = raw.split("\r\n\r\n");
    expect(head.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request");
    expect(head.toLowerCase().split("\r\n")).toContain("cache-control: no-store");
  });

  it("on a rate-limited answer (429)", async () => {
    const limited = await serve({ ...MARKET_ON, RATE_LIMIT_PER_MINUTE: "1" });
    const first = await call(limited, "GET", "/v1/market/listings");
    const second = await call(limited, "GET", "/v1/market/listings");
    expect([first, second]).toEqual([
      { status: 200, error: null, cacheControl: "no-store" },
      { status: 429, error: "rate_limited", cacheControl: "no-store" },
    ]);
  });
});
