// The RPC client's answers to what providers' edges send: 429/503 with Retry-After are retried after the time
// asked (bounded), cut JSON and resets are retried like other transient failures, and the last failure surfaces.
import { describe, expect, it } from "vitest";
import { RpcClient, RpcUnavailableError, retryAfterMs } from "./rpc-client.ts";

const OK = () =>
  new Response(JSON.stringify({ jsonrpc: "2.0", id: 1, result: { sequence: 42 } }), {
    headers: { "content-type": "application/json" },
  });

function client(answers: (() => Response | Promise<Response>)[], opts: { maxRetryAfterMs?: number } = {}) {
  const pauses: number[] = [];
  let calls = 0;
  const rpc = new RpcClient("http://rpc.test", {
    retries: answers.length - 1,
    backoffMs: 100,
    ...opts,
    sleep: async (ms) => {
      pauses.push(ms);
    },
    fetch: async () => {
      const answer = answers[calls++];
      if (answer === undefined) throw new Error("no more answers");
      return answer();
    },
  });
  return { rpc, pauses, calls: () => calls };
}

describe("RpcClient under provider faults", () => {
  it("waits the Retry-After of a 429 or 503 before the next attempt, never less than its backoff", async () => {
    const { rpc, pauses } = client([
      () => new Response("slow down", { status: 429, headers: { "retry-after": "3" } }),
      () => new Response("busy", { status: 503, headers: { "retry-after": "0" } }),
      () => new Response("busy", { status: 503 }),
      OK,
    ]);
    expect(await rpc.getLatestLedger()).toEqual({ sequence: 42 });
    expect(pauses).toEqual([3000, 200, 400]);
  });

  it("caps a Retry-After at maxRetryAfterMs", async () => {
    const { rpc, pauses } = client(
      [() => new Response("", { status: 429, headers: { "retry-after": "3600" } }), OK],
      { maxRetryAfterMs: 5000 },
    );
    await rpc.getLatestLedger();
    expect(pauses).toEqual([5000]);
  });

  it("retries a cut JSON body and a reset connection, then reports the RPC unavailable", async () => {
    const cut = () => new Response('{"jsonrpc":"2.0","id":1,"result":{"ev', { status: 200 });
    const reset = () => Promise.reject(new TypeError("fetch failed"));
    const ok = client([cut, reset, OK]);
    expect(await ok.rpc.getLatestLedger()).toEqual({ sequence: 42 });
    expect(ok.calls()).toBe(3);
    const failing = client([cut, cut]);
    const err = await failing.rpc.getLatestLedger().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcUnavailableError);
    expect((err as Error).message).toBe("getLatestLedger failed after 2 attempts");
    expect(((err as Error).cause as Error).message).toBe("malformed JSON answer");
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs("7", now)).toBe(7000);
    expect(retryAfterMs("Thu, 01 Jan 2026 00:00:05 GMT", now)).toBe(5000);
    expect(retryAfterMs("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect(retryAfterMs("soon", now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});
