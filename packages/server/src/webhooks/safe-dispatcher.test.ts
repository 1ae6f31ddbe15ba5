// The connect-time half of the SSRF rule, against a real receiver on loopback: the address actually connected
// to is judged, so a name that resolved to a public address when it was registered and to 127.0.0.1 now is
// refused now. Names are resolved by the test's own resolver: no DNS, no internet.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDispatcher } from "./safe-dispatcher.ts";
import { EXCERPT_BYTES, sendAttempt } from "./send.ts";
import { checkWebhookUrl, type Resolver } from "./target-policy.ts";

let server: Server;
let port: number;
const seen: IncomingMessage[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    seen.push(request);
    request.resume();
    if (request.url === "/redirect") {
      response.writeHead(302, { location: "/elsewhere" }).end();
    } else if (request.url === "/large") {
      response.writeHead(500).end("é".repeat(50_000));
    } else if (request.url === "/silent") {
      // Never answers: the attempt's timeout ends it.
    } else {
      response.writeHead(200).end("ok");
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** rebind.test resolves to a public address once, then to loopback; local.test always to loopback. */
function resolverFor(): Resolver {
  let rebindCalls = 0;
  return async (host) => {
    if (host === "rebind.test") {
      rebindCalls++;
      return [{ address: rebindCalls === 1 ? "93.184.215.14" : "127.0.0.1", family: 4 }];
    }
    if (host === "local.test") return [{ address: "127.0.0.1", family: 4 }];
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  };
}

function sender(allowPrivateTargets: boolean, resolve = resolverFor(), timeoutMs = 5000) {
  const dispatcher = webhookDispatcher({
    policy: { allowHttp: true, allowPrivateTargets },
    resolve,
    connectTimeoutMs: timeoutMs,
  });
  return (url: string) =>
    sendAttempt({
      dispatcher,
      url,
      headers: { "webhook-id": "msg_test" },
      body: "{}",
      timeoutMs,
      now: () => new Date(),
      userAgent: "namereg-webhooks-test",
    });
}

describe("connect-time target check", () => {
  it("refuses loopback, private, metadata, [::1] and a name resolving to loopback; nothing reaches the receiver", async () => {
    const send = sender(false);
    const before = seen.length;
    const refusals = {
      [`http://127.0.0.1:${port}/`]: "target refused: 127.0.0.1 is a loopback address",
      "http://10.20.30.40/": "target refused: 10.20.30.40 is a private address",
      "http://169.254.169.254/latest/meta-data/": "target refused: 169.254.169.254 is a link-local address",
      [`http://[::1]:${port}/`]: "target refused: ::1 is a loopback address",
      [`http://local.test:${port}/`]:
        "target refused: local.test resolves to 127.0.0.1 is a loopback address",
    };
    for (const [url, message] of Object.entries(refusals)) {
      const result = await send(url);
      expect(result).toMatchObject({ statusCode: null, excerpt: null });
      expect(result.error).toContain(`${message} (WEBHOOK_ALLOW_PRIVATE_TARGETS is off)`);
    }
    expect(seen.length).toBe(before);
  });

  it("judges the address connected to, not the one seen at registration (DNS rebinding)", async () => {
    const resolve = resolverFor();
    const url = `http://rebind.test:${port}/`;
    expect(await checkWebhookUrl(url, { allowHttp: true, allowPrivateTargets: false }, resolve)).toEqual({
      ok: true,
      url,
    });
    const before = seen.length;
    const result = await sender(false, resolve)(url);
    expect(result.error).toContain("target refused: rebind.test resolves to 127.0.0.1 is a loopback address");
    expect(seen.length).toBe(before);
  });

  it("connects to all of them with WEBHOOK_ALLOW_PRIVATE_TARGETS", async () => {
    const send = sender(true);
    expect(await send(`http://127.0.0.1:${port}/`)).toMatchObject({
      statusCode: 200,
      excerpt: "ok",
      error: null,
    });
    expect(await send(`http://local.test:${port}/named`)).toMatchObject({ statusCode: 200 });
    expect(seen.at(-1)?.headers.host).toBe(`local.test:${port}`);
    expect(seen.at(-1)?.headers["webhook-id"]).toBe("msg_test");
  });
});

describe("one attempt", () => {
  const send = sender(true);

  it("follows no redirect", async () => {
    const before = seen.length;
    expect(await send(`http://127.0.0.1:${port}/redirect`)).toMatchObject({ statusCode: 302, error: null });
    expect(seen.slice(before).map((r) => r.url)).toEqual(["/redirect"]);
  });

  it("keeps at most 1 KiB of the answer, never a cut character", async () => {
    const result = await send(`http://127.0.0.1:${port}/large`);
    expect(result.statusCode).toBe(500);
    const excerpt = result.excerpt ?? "";
    expect(Buffer.byteLength(excerpt)).toBeLessThanOrEqual(EXCERPT_BYTES);
    expect(excerpt).toBe("é".repeat(EXCERPT_BYTES / 2));
  });

  it("ends an attempt the receiver does not answer at the timeout", async () => {
    const result = await sender(true, resolverFor(), 300)(`http://127.0.0.1:${port}/silent`);
    expect(result).toMatchObject({ statusCode: null, error: "timed out after 300 ms", excerpt: null });
  });
});
