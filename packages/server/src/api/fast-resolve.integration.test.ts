// The fast resolve path (fast-resolve.ts) against the Fastify route it stands in for, over real HTTP on the
// indexed demo: the same status, headers and body for a hit; one global limit across both paths; and everything
// it must not answer — misses, expired names, odd paths, HEAD, a reached limit — left to Fastify.
import { connect } from "node:net";
import type { NamingDevnet } from "@namereg/devnet";
import { Keypair } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../test/fixtures/config.ts";
import type { TestDatabase } from "../../test/fixtures/database.ts";
import { indexDemo } from "../../test/fixtures/demo.ts";
import type { Env } from "../config/load.ts";
import { type App, buildApp } from "./app.ts";
import { fastResolveOf } from "./fast-resolve.ts";
import type { ResolveCacheOptions } from "./resolve-cache.ts";

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

async function get(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(base + path, { headers });
  const all: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    if (key !== "date") all[key] = value;
  });
  return { status: response.status, headers: all, body: await response.text() };
}

/** An answer without its `ratelimit-reset`, which depends on when the app's limit window opened. */
function unwindowed(answer: Answer | undefined): Answer | undefined {
  if (answer === undefined) return undefined;
  const { "ratelimit-reset": _reset, ...headers } = answer.headers;
  return { ...answer, headers };
}

/** Writes `raw` on a fresh socket and reads the whole answer until the server closes: its status line and body. */
function rawExchange(port: number, raw: string): Promise<{ status: string; body: unknown }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(raw));
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString();
    });
    socket.on("close", () =>
      resolve({
        status: text.slice(0, text.indexOf("\r\n")),
        body: JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)),
      }),
    );
    socket.on("error", reject);
    socket.setTimeout(15_000, () => {
      socket.destroy();
      reject(new Error("the server held the connection for 15 s"));
    });
  });
}

describe("the fast resolve path", () => {
  let devnet: NamingDevnet;
  let database: TestDatabase;
  const apps: App[] = [];
  let wall = Date.now();
  const start = async (
    env: Env,
    fastResolve = true,
    resolveCache: ResolveCacheOptions = {},
  ): Promise<{ app: App; base: string }> => {
    const app = await buildApp({
      config: testConfig(env),
      db: database,
      redis: null,
      fastResolve,
      now: () => new Date(wall),
      resolveCache,
    });
    apps.push(app);
    return { app, base: await app.listen({ port: 0, host: "127.0.0.1" }) };
  };
  beforeAll(async () => {
    ({ devnet, database } = await indexDemo("pglite"));
  }, 120_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    await devnet?.stop();
    await database?.close();
  });

  it("answers a hit with the status, headers and body Fastify gives it", async () => {
    const fast = await start({});
    const plain = await start({}, false);
    // The first round fills the fast app's cache on its first request; every later request there is a hit.
    const rounds: [Record<string, string>, number][] = [
      [{}, 1],
      [{ origin: "https://wallet.example" }, 3],
    ];
    for (const [headers, servedAfter] of rounds) {
      const viaFastify = [await get(plain.base, "/v1/resolve/acme/alice", headers)];
      viaFastify.push(await get(plain.base, "/v1/resolve/acme/alice", headers));
      const miss = await get(fast.base, "/v1/resolve/acme/alice", headers);
      const hit = await get(fast.base, "/v1/resolve/acme/alice", headers);
      expect(fastResolveOf(fast.app)?.served).toBe(servedAfter);
      // Each app's limit window opened when it first counted, which a loaded machine can put a second apart: the
      // seconds to its reset are compared apart from the rest, as whole seconds of a 60 s window.
      expect(unwindowed(hit)).toEqual(unwindowed(viaFastify[1]));
      expect(unwindowed(miss)).toEqual(unwindowed(viaFastify[0]));
      for (const a of [hit, miss]) expect(Number(a.headers["ratelimit-reset"])).toBeGreaterThanOrEqual(1);
      for (const a of [hit, miss]) expect(Number(a.headers["ratelimit-reset"])).toBeLessThanOrEqual(60);
      expect(hit.status).toBe(200);
      expect(JSON.parse(hit.body)).toMatchObject({ name: "alice.acme", ownership: "permanent" });
      expect(hit.headers).toMatchObject({
        "access-control-allow-origin": "*",
        "cache-control": "no-store",
        "content-type": "application/json; charset=utf-8",
        "ratelimit-limit": "600",
      });
    }
    // Every hit writes its figures into one header list: names of different lengths, alternately, each answered
    // with its own length and body (the first `bob` is a miss, the later ones hits).
    for (const label of ["bob", "alice", "bob", "alice"]) {
      const hit = await get(fast.base, `/v1/resolve/acme/${label}`);
      const viaFastify = await get(plain.base, `/v1/resolve/acme/${label}`);
      expect(unwindowed(hit)).toEqual(unwindowed(viaFastify));
      expect(JSON.parse(hit.body)).toMatchObject({ name: `${label}.acme` });
    }
    expect(fastResolveOf(fast.app)?.served).toBe(6);
    expect(fastResolveOf(plain.app)).toBeNull();
  });

  it("counts one global limit across both paths, and answers its 429 as Fastify does", async () => {
    const fast = await start({ RATE_LIMIT_PER_MINUTE: "3" });
    const plain = await start({ RATE_LIMIT_PER_MINUTE: "3" }, false);
    const answers: Answer[] = [];
    const expected: Answer[] = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await get(fast.base, "/v1/resolve/acme/alice", { origin: "https://wallet.example" }));
      expected.push(await get(plain.base, "/v1/resolve/acme/alice", { origin: "https://wallet.example" }));
    }
    expect(answers.map((a) => [a.status, a.headers["ratelimit-remaining"]])).toEqual([
      [200, "2"],
      [200, "1"],
      [200, "0"],
      [429, "0"],
    ]);
    // The seconds left in the window depend on when each app's window opened, which a loaded machine can put a
    // second apart: compared apart from the rest, as whole seconds of a 60 s window, the 429's Retry-After equal
    // to its reset.
    const windowed = (a: Answer) => {
      const { "ratelimit-reset": reset, "retry-after": retry, ...headers } = a.headers;
      return { answer: { ...a, headers }, reset, retry };
    };
    expect(answers.map((a) => windowed(a).answer)).toEqual(expected.map((a) => windowed(a).answer));
    for (const a of [...answers, ...expected]) {
      const { reset, retry } = windowed(a);
      expect(Number(reset)).toBeGreaterThanOrEqual(1);
      expect(Number(reset)).toBeLessThanOrEqual(60);
      expect(retry).toBe(a.status === 429 ? reset : undefined);
    }
    expect(JSON.parse(answers[3]?.body ?? "")).toMatchObject({ error: "rate_limited" });
    // The first was a miss (Fastify fills the cache); the next two were hits served here.
    expect(fastResolveOf(fast.app)?.served).toBe(2);
  });

  it("keys the limit by the client address Fastify sees behind a trusted proxy", async () => {
    const { app, base } = await start({ RATE_LIMIT_PER_MINUTE: "2", TRUST_PROXY: "1" });
    const from = (ip: string) => get(base, "/v1/resolve/acme/alice", { "x-forwarded-for": ip });
    expect((await from("10.0.0.1")).status).toBe(200);
    expect((await from("10.0.0.1")).status).toBe(200);
    expect((await from("10.0.0.1")).status).toBe(429);
    expect((await from("10.0.0.2")).status).toBe(200);
    expect(fastResolveOf(app)?.served).toBe(2);
    // IPv6 clients are counted per /64, as the plugin keys them: three addresses of one subnet share a count.
    expect((await from("2001:db8::1")).status).toBe(200);
    expect((await from("2001:db8::2")).status).toBe(200);
    const third = await from("2001:db8::3");
    expect([third.status, third.headers["ratelimit-remaining"]]).toEqual([429, "0"]);
    expect((await from("2001:db8:0:1::1")).status).toBe(200);
    expect(fastResolveOf(app)?.served).toBe(5);
  });

  it("answers a hit asked for with two Host headers 400 invalid_request, as Fastify answers any route", async () => {
    const { app, base } = await start({});
    const { port } = new URL(base);
    // A miss fills the cache; the next request is a hit served here.
    expect((await get(base, "/v1/resolve/acme/alice")).status).toBe(200);
    expect((await get(base, "/v1/resolve/acme/alice")).status).toBe(200);
    expect(fastResolveOf(app)?.served).toBe(1);
    const twoHosts = (path: string) =>
      rawExchange(
        Number(port),
        `GET ${path} HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\nConnection: close\r\n\r\n`,
      );
    const refused = {
      status: "HTTP/1.1 400 Bad Request",
      body: { error: "invalid_request", detail: "The request has more than one Host header." },
    };
    expect(await twoHosts("/v1/resolve/acme/alice")).toEqual(refused);
    expect(await twoHosts("/health")).toEqual(refused);
    // The hit was not served from the cache: Fastify refused it.
    expect(fastResolveOf(app)?.served).toBe(1);
    // One Host is still a hit.
    expect((await get(base, "/v1/resolve/acme/alice")).status).toBe(200);
    expect(fastResolveOf(app)?.served).toBe(2);
  });

  it("leaves misses, odd paths, query strings, HEAD and expired names to Fastify", async () => {
    const { app, base } = await start({});
    const served = () => fastResolveOf(app)?.served;
    expect((await get(base, "/v1/resolve/acme/bob")).status).toBe(200);
    expect((await get(base, "/v1/resolve/acme/bob")).status).toBe(200);
    expect(served()).toBe(1);
    // Upper case is lower-cased by the route; percent-encoding and a trailing slash are the router's business.
    expect(JSON.parse((await get(base, "/v1/resolve/ACME/Bob")).body)).toMatchObject({ name: "bob.acme" });
    expect((await get(base, "/v1/resolve/acme/%62ob")).status).toBe(200);
    expect((await get(base, "/v1/resolve/acme/bob/")).status).toBe(404);
    expect((await fetch(`${base}/v1/resolve/acme/bob`, { method: "HEAD" })).status).toBe(200);
    expect((await get(base, "/v1/resolve/acme/nobody")).status).toBe(404);
    expect((await get(base, "/v1/resolve/acme/nobody")).status).toBe(404);
    // The route takes no query parameters: a cached name with one is refused, as everywhere under /v1.
    const queried = await get(base, "/v1/resolve/acme/bob?fields=all");
    expect(queried.status).toBe(400);
    expect(JSON.parse(queried.body)).toEqual({
      error: "invalid_request",
      detail: 'querystring: Unrecognized key: "fields"',
    });
    expect(served()).toBe(1);
    // bob.acme is timed: once the clock passes its expiry the cached answer is never served again.
    wall = Date.UTC(2100, 0, 1);
    const expired = await get(base, "/v1/resolve/acme/bob");
    expect(expired.status).toBe(404);
    expect(JSON.parse(expired.body)).toMatchObject({ error: "name_expired" });
    expect(served()).toBe(1);
    wall = Date.now();
  });

  it("re-reads an answer still asked for near the end of its lifetime, serving it until the new one is in", async () => {
    let monotonic = 0;
    const { app, base } = await start({}, true, {
      positiveTtlMs: 10_000,
      clock: () => monotonic,
      jitter: () => 0,
    });
    const account = async () => JSON.parse((await get(base, "/v1/resolve/acme/alice")).body).account;
    const before = await account();
    // A change whose notification never came: only a re-read of the mirror can show it.
    const other = Keypair.random().publicKey();
    const holder = (address: string) =>
      database.query("update names set holder = $1 where namespace = 'acme' and label = 'alice'", [address]);
    await holder(other);
    try {
      monotonic = 8_999;
      expect(await account()).toBe(before);
      // The last tenth of the answer's 10 s: this hit is served from the cache and asks for a re-read.
      monotonic = 9_000;
      expect(await account()).toBe(before);
      let seen = before;
      for (let i = 0; i < 100 && seen === before; i++) {
        await new Promise((r) => setTimeout(r, 20));
        seen = await account();
      }
      // Still inside the first answer's lifetime: only the re-read can have brought this.
      expect(seen).toBe(other);
      expect(fastResolveOf(app)?.served).toBeGreaterThanOrEqual(3);
    } finally {
      await holder(before);
    }
  });
});
