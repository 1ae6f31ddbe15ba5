// What a slow, oversized or malformed client gets at the HTTP level, over real sockets: the house error format
// for the failures Node's parser raises before Fastify sees a request, a request timeout for bodies that never
// finish, 415 for non-JSON bodies, and a connection cap.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testConfig } from "../../../test/fixtures/config.ts";
import { createTestDatabase, type TestDatabase } from "../../../test/fixtures/database.ts";
import { type App, buildApp } from "../app.ts";

let database: TestDatabase;
let app: App;
let port: number;
beforeAll(async () => {
  database = await createTestDatabase("pglite");
  app = await buildApp({
    config: testConfig({ HTTP_REQUEST_TIMEOUT_MS: "1000", HTTP_MAX_CONNECTIONS: "20" }),
    db: database,
    redis: null,
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await app?.close();
  await database?.close();
});

/** Sends `raw` (optionally leaving the socket open) and resolves with everything the server wrote until close. */
function exchange(raw: string, opts: { keepOpen?: boolean } = {}): Promise<{ text: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket: Socket = connect(port, "127.0.0.1", () => {
      socket.write(raw);
      if (opts.keepOpen !== true) socket.end();
    });
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString();
    });
    socket.on("close", () => resolve({ text, ms: performance.now() - started }));
    // A connection refused at accept is reset: for the caller that is a close with nothing written.
    socket.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ECONNRESET") resolve({ text, ms: performance.now() - started });
      else reject(err);
    });
    socket.setTimeout(15_000, () => {
      socket.destroy();
      reject(new Error("the server held the connection for 15 s"));
    });
  });
}

const bodyOf = (text: string) =>
  JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) as Record<string, unknown>;

describe("HTTP hardening", () => {
  it("closes a request whose body never completes with 408 request_timeout", async () => {
    const { text } = await exchange(
      "POST /records/submit HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
      { keepOpen: true },
    );
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(text)).toEqual({ error: "request_timeout", detail: "The request did not arrive in time." });
  });

  it("answers over-large headers with 431 in the house format", async () => {
    const { text } = await exchange(
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(text)).toMatchObject({ error: "request_header_fields_too_large" });
  });

  it("answers an invalid header character with 400 invalid_request in the house format", async () => {
    const { text } = await exchange("GET /health HTTP/1.1\r\nHost: x\r\nX-Bad\u0001: 1\r\n\r\n");
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(text)).toMatchObject({ error: "invalid_request" });
  });

  it("answers two Host headers, or none in HTTP/1.1, with 400 invalid_request and closes the connection", async () => {
    const { text } = await exchange("GET /health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n", {
      keepOpen: true,
    });
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.toLowerCase()).toContain("\r\nconnection: close\r\n");
    expect(bodyOf(text)).toEqual({
      error: "invalid_request",
      detail: "The request has more than one Host header.",
    });
    // None in HTTP/1.1 is refused the same way (Node's own answer would be an empty 400); one is answered as before.
    const { text: none } = await exchange("GET /health HTTP/1.1\r\n\r\n", { keepOpen: true });
    expect(none).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(none)).toEqual({
      error: "invalid_request",
      detail: "An HTTP/1.1 request needs a Host header.",
    });
    const { text: old } = await exchange("GET /health HTTP/1.0\r\n\r\n");
    expect(old).toMatch(/^HTTP\/1\.1 200 /);
    const { text: one } = await exchange(
      "GET /health HTTP/1.1\r\nHost: a.example\r\nConnection: close\r\n\r\n",
    );
    expect(one).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("answers CONNECT with 405 method_not_allowed in the house format (no tunnel, no silent close)", async () => {
    const { text } = await exchange("CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n", {
      keepOpen: true,
    });
    expect(text).toMatch(/^HTTP\/1\.1 405 /);
    expect(text.toLowerCase()).toContain("\r\nconnection: close\r\n");
    expect(text.toLowerCase()).toContain("\r\ncache-control: no-store\r\n");
    expect(bodyOf(text)).toEqual({ error: "method_not_allowed" });
  });

  it("answers a text/plain body with 415 unsupported_media_type", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/records/submit`, {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "AAAA",
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: "unsupported_media_type" });
  });

  it("refuses a compressed body with 415 unsupported_media_type instead of parsing it as plain JSON", async () => {
    const { gzipSync } = await import("node:zlib");
    const json = JSON.stringify({ signedXdr: "AAAA" });
    for (const [coding, body] of [
      ["gzip", gzipSync(json)],
      // A plain body labelled compressed is refused too: a proxy in front may have read it decoded.
      ["deflate", Buffer.from(json)],
      ["br", Buffer.from(json)],
      ["gzip, identity", gzipSync(json)],
    ] as const) {
      const response = await fetch(`http://127.0.0.1:${port}/records/submit`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": coding },
        body,
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toEqual({
        error: "unsupported_media_type",
        detail: `Request bodies are read as sent: Content-Encoding ${coding.replace(", identity", "")} is not supported; send the JSON uncompressed.`,
      });
    }
  });

  it("reads a body labelled identity, and a bodiless request naming a coding, as usual", async () => {
    const plain = await fetch(`http://127.0.0.1:${port}/records/submit`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "identity" },
      body: "{",
    });
    expect(plain.status).toBe(400);
    expect(await plain.json()).toEqual({
      error: "invalid_request",
      detail: "The request body is not valid JSON.",
    });
    const get = await fetch(`http://127.0.0.1:${port}/health`, { headers: { "content-encoding": "gzip" } });
    expect(get.status).toBe(200);
    // A GET's body is never read, whatever its coding (the fast resolve path ignores it too).
    const { text } = await exchange(
      "GET /health HTTP/1.1\r\nHost: x\r\nContent-Encoding: gzip\r\nContent-Length: 4\r\nConnection: close\r\n\r\nxxxx",
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("answers a body over the limit with 413 payload_too_large", async () => {
    const response = await fetch(`http://127.0.0.1:${port}/records/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ xdr: "A".repeat(200 * 1024) }),
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: "payload_too_large" });
  });

  it("caps open connections", async () => {
    expect(app.server.maxConnections).toBe(20);
    const held = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<Socket>((resolve) => {
            const s = connect(port, "127.0.0.1", () => resolve(s));
          }),
      ),
    );
    try {
      // The 21st is accepted by the kernel and closed at once by Node, without an answer.
      const { text } = await exchange("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", { keepOpen: true });
      expect(text).toBe("");
    } finally {
      for (const s of held) s.destroy();
    }
  });
});
