// The RPC's request limits, answered as stellar-rpc answers them (limits.ts), and a large batch that does not hold
// other clients. No timing bounds: the assertions are on answers and on which answer comes first.
import { request } from "node:http";
import { StrKey, xdr } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { SyntheticEvent } from "../chain/synthetic-events.ts";
import { type Devnet, startDevnet } from "../devnet.ts";
import { resolveLimits, STELLAR_RPC_LIMITS } from "./limits.ts";

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** POSTs `body`; `onSent` runs once the whole body has been handed to the socket. */
function post(url: string, body: string, onSent?: () => void): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", headers: { "content-type": "application/json" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body, onSent);
  });
}

const call = (id: number, method: string, params?: unknown) => ({
  jsonrpc: "2.0",
  id,
  method,
  ...(params === undefined ? {} : { params }),
});

/** A batch of `n` getEvents calls from the first ledger, `limit` events each: the shape of the probe's batch. */
const eventsBatch = (n: number, limit: number) =>
  JSON.stringify(
    Array.from({ length: n }, (_, i) =>
      call(i + 1, "getEvents", { startLedger: 2, filters: [], pagination: { limit } }),
    ),
  );

/**
 * Sends `batch`; when the devnet is in the middle of it (its 100th event scan), sends a getHealth. Reports how many
 * scans the batch had run when the getHealth's answer arrived: a devnet that runs a batch in one go has run them
 * all.
 */
async function healthBesideBatch(devnet: Devnet, batch: string) {
  const events = devnet.chain.events;
  const scan = events.scan.bind(events);
  let scans = 0;
  let scansWhenHealthAnswered: number | undefined;
  let health: Promise<Reply> | undefined;
  const spy = vi.spyOn(events, "scan").mockImplementation((...args) => {
    if (++scans === 100) {
      health = post(devnet.rpcUrl, JSON.stringify(call(1, "getHealth"))).then((reply) => {
        scansWhenHealthAnswered = scans;
        return reply;
      });
    }
    return scan(...args);
  });
  try {
    const batchReply = await post(devnet.rpcUrl, batch);
    if (health === undefined) throw new Error("the batch never reached its 100th scan");
    const healthReply = await health;
    return { healthReply, scansWhenHealthAnswered, batchReply };
  } finally {
    spy.mockRestore();
  }
}

function fillEvents(devnet: Devnet, ledgers: number, perLedger: number): void {
  const contractId = StrKey.encodeContract(Buffer.alloc(32, 7));
  const topic = xdr.ScVal.scvSymbol("probe").toXdr("base64");
  const value = xdr.ScVal.scvU32(1).toXdr("base64");
  for (let l = 0; l < ledgers; l++) {
    const events: SyntheticEvent[] = Array.from({ length: perLedger }, () => ({
      contractId,
      topics: [topic],
      value,
    }));
    devnet.chain.appendSyntheticLedger(events);
  }
}

describe("with stellar-rpc's default limits", () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ closeIntervalMs: 0 });
    fillEvents(devnet, 20, 50);
  });
  afterAll(async () => devnet?.stop());

  it("uses stellar-rpc's defaults and serves no admin endpoint", async () => {
    expect(devnet.limits).toEqual(STELLAR_RPC_LIMITS);
    expect(STELLAR_RPC_LIMITS).toMatchObject({
      maxRequestBytes: 524_288,
      maxRequestExecutionMs: 25_000,
      requestBacklogGlobal: 5_000,
      maxEventsLimit: 10_000,
      defaultEventsLimit: 100,
      maxTransactionsLimit: 200,
      defaultTransactionsLimit: 50,
      maxLedgersLimit: 200,
      defaultLedgersLimit: 50,
    });
    expect(STELLAR_RPC_LIMITS.methodExecutionMs.getEvents).toBe(10_000);
    expect(devnet.adminUrl).toBeUndefined();
    const admin = await fetch(`${devnet.rpcUrl}/admin/faults`);
    expect(admin.status).toBe(404);
  });

  it("answers a body over 512 KiB as stellar-rpc does: a plain-text 500, connection closed", async () => {
    const body = JSON.stringify(call(1, "getHealth", { pad: "x".repeat(600 * 1024) }));
    const reply = await post(devnet.rpcUrl, body);
    expect(reply.status).toBe(500);
    expect(reply.headers["content-type"]).toBe("text/plain; charset=utf-8");
    expect(reply.headers.connection).toBe("close");
    expect(reply.text).toBe("http: request body too large\n");
    // A body exactly at the limit is read and answered.
    const at = JSON.stringify(call(1, "getHealth", { pad: "" }));
    const padded = JSON.stringify(call(1, "getHealth", { pad: "x".repeat(512 * 1024 - at.length) }));
    expect(Buffer.byteLength(padded)).toBe(512 * 1024);
    const ok = await post(devnet.rpcUrl, padded);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.text)).toMatchObject({ id: 1, result: { status: "healthy" } });
  });

  it("answers a getHealth while a batch of 2,400 getEvents is running, then the whole batch", async () => {
    const batch = eventsBatch(2_400, 10);
    expect(Buffer.byteLength(batch)).toBeLessThan(STELLAR_RPC_LIMITS.maxRequestBytes);
    const { healthReply, scansWhenHealthAnswered, batchReply } = await healthBesideBatch(devnet, batch);
    expect(healthReply.status).toBe(200);
    expect(JSON.parse(healthReply.text)).toMatchObject({ id: 1, result: { status: "healthy" } });
    // The getHealth was answered while the batch was still running: not all of its 2,400 scans had run.
    expect(scansWhenHealthAnswered).toBeLessThan(2_400);
    expect(batchReply.status).toBe(200);
    const answers = JSON.parse(batchReply.text) as { id: number; result: { events: unknown[] } }[];
    expect(answers).toHaveLength(2_400);
    expect(answers[2_399]?.id).toBe(2_400);
    expect(answers[2_399]?.result.events).toHaveLength(10);
  });
});

describe("page limits", () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ closeIntervalMs: 0 });
    fillEvents(devnet, 60, 1);
  });
  afterAll(async () => devnet?.stop());

  const ask = async (method: string, params: unknown) =>
    JSON.parse((await post(devnet.rpcUrl, JSON.stringify(call(1, method, params)))).text) as {
      result?: { ledgers?: unknown[] };
      error?: unknown;
    };

  it("refuses a limit over the maximum with stellar-rpc's code for each method", async () => {
    expect(
      (await ask("getEvents", { startLedger: 2, filters: [], pagination: { limit: 10_001 } })).error,
    ).toEqual({
      code: -32602,
      message: "limit must not exceed 10000",
    });
    expect((await ask("getLedgers", { startLedger: 2, pagination: { limit: 201 } })).error).toEqual({
      code: -32600,
      message: "limit must not exceed 200",
    });
    expect((await ask("getTransactions", { startLedger: 2, pagination: { limit: 201 } })).error).toEqual({
      code: -32600,
      message: "limit must not exceed 200",
    });
  });

  it("pages getLedgers by stellar-rpc's default of 50", async () => {
    expect((await ask("getLedgers", { startLedger: 2 })).result?.ledgers).toHaveLength(50);
  });
});

describe("with limits set as options", () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({
      closeIntervalMs: 0,
      limits: { maxRequestExecutionMs: 1, maxEventsLimit: 20, defaultEventsLimit: 5 },
    });
    fillEvents(devnet, 4, 10);
  });
  afterAll(async () => devnet?.stop());

  it("answers a batch that outruns the request execution limit 504 with an empty body", async () => {
    // 5,000 calls cannot all run within 1 ms; stellar-rpc abandons the request and answers a bare 504.
    const batch = JSON.stringify(Array.from({ length: 5_000 }, (_, i) => call(i + 1, "getHealth")));
    expect(Buffer.byteLength(batch)).toBeLessThan(STELLAR_RPC_LIMITS.maxRequestBytes);
    const reply = await post(devnet.rpcUrl, batch);
    expect(reply.status).toBe(504);
    expect(reply.text).toBe("");
  });

  it("pages by the configured default and maximum", async () => {
    const limits = resolveLimits({ maxRequestExecutionMs: 1, maxEventsLimit: 20, defaultEventsLimit: 5 });
    expect(devnet.limits).toEqual(limits);
    const wide = await startDevnet({
      closeIntervalMs: 0,
      limits: { maxEventsLimit: 20, defaultEventsLimit: 5 },
    });
    try {
      fillEvents(wide, 2, 10);
      const page = await post(
        wide.rpcUrl,
        JSON.stringify(call(1, "getEvents", { startLedger: 2, filters: [] })),
      );
      expect((JSON.parse(page.text) as { result: { events: unknown[] } }).result.events).toHaveLength(5);
      const over = await post(
        wide.rpcUrl,
        JSON.stringify(call(1, "getEvents", { startLedger: 2, filters: [], pagination: { limit: 21 } })),
      );
      expect(JSON.parse(over.text)).toMatchObject({
        error: { code: -32602, message: "limit must not exceed 20" },
      });
    } finally {
      await wide.stop();
    }
  });
});

describe("with a 1 ms limit on getEvents", () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ closeIntervalMs: 0, limits: { methodExecutionMs: { getEvents: 1 } } });
    fillEvents(devnet, 10, 1_000);
  });
  afterAll(async () => devnet?.stop());

  it("answers a call that overran its method's limit -32001, as stellar-rpc, and the others as usual", async () => {
    // A page of 10,000 events cannot be built within 1 ms.
    const batch = JSON.stringify([
      call(1, "getEvents", { startLedger: 2, filters: [], pagination: { limit: 10_000 } }),
      call(2, "getHealth"),
    ]);
    const reply = await post(devnet.rpcUrl, batch);
    expect(reply.status).toBe(200);
    const [events, health] = JSON.parse(reply.text) as [unknown, { result: { status: string } }];
    expect(events).toEqual({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32001, message: "request exceeded processing limit threshold" },
    });
    expect(health.result.status).toBe("healthy");
  });
});

describe("with a global backlog of one request", () => {
  let devnet: Devnet;
  beforeAll(async () => {
    devnet = await startDevnet({ closeIntervalMs: 0, limits: { requestBacklogGlobal: 1 } });
    fillEvents(devnet, 20, 50);
  });
  afterAll(async () => devnet?.stop());

  it("answers a request beside a running one 503 with an empty body, as stellar-rpc's backlog limiter", async () => {
    const { healthReply, batchReply } = await healthBesideBatch(devnet, eventsBatch(2_400, 10));
    expect(healthReply.status).toBe(503);
    expect(healthReply.text).toBe("");
    expect(batchReply.status).toBe(200);
    expect(JSON.parse(batchReply.text)).toHaveLength(2_400);
  });
});
