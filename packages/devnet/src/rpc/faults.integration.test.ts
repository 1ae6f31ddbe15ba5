// Fault injection through /admin/faults on the admin endpoint, observed through the unchanged SDK.
import {
  Asset,
  Keypair,
  Operation,
  StrKey,
  scValToNative,
  TransactionBuilder,
  xdr,
} from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, itConformsToOpenRpc, startHarness } from "../../test/fixtures/harness.ts";
import type { Faults } from "./faults.ts";

let h: Harness;
const RETENTION = 50;

async function setFaults(update: Partial<Faults> | Record<string, unknown>) {
  const res = await fetch(`${adminUrl()}/admin/faults`, {
    method: "POST",
    body: JSON.stringify(update),
  });
  return { status: res.status, body: (await res.json()) as Faults & { error?: string } };
}

function adminUrl(): string {
  if (h.devnet.adminUrl === undefined) throw new Error("the devnet has no admin endpoint");
  return h.devnet.adminUrl;
}

beforeAll(async () => {
  h = await startHarness({ retentionLedgers: RETENTION, faults: { latencyMs: 0 }, adminPort: 0 });
});
afterAll(async () => h?.close());

describe("fault injection", () => {
  it("is served on the admin endpoint, on loopback, and never on the RPC port", async () => {
    expect(new URL(adminUrl()).hostname).toBe("127.0.0.1");
    expect(adminUrl()).not.toBe(h.devnet.rpcUrl);
    const read = await fetch(`${h.devnet.rpcUrl}/admin/faults`);
    expect(read.status).toBe(404);
    expect(await read.json()).toEqual({ error: "not found" });
    const write = await fetch(`${h.devnet.rpcUrl}/admin/faults`, {
      method: "POST",
      body: JSON.stringify({ errorRate: 1 }),
    });
    expect(write.status).toBe(404);
    expect(h.devnet.faults().errorRate).toBe(0);
  });

  it("reads and validates the fault settings", async () => {
    const current = (await (await fetch(`${adminUrl()}/admin/faults`)).json()) as Faults;
    expect(current).toEqual({
      latencyMs: 0,
      errorRate: 0,
      seed: 1,
      retentionLedgers: null,
      freezeHead: false,
      truncateEventsTo: null,
      rateLimitedRate: 0,
      retryAfterSeconds: 1,
      unavailableRate: 0,
      resetRate: 0,
      hangRate: 0,
      hangMs: 20_000,
      malformedRate: 0,
    });
    expect((await setFaults({ errorRate: 2 })).status).toBe(400);
    expect(await setFaults({ resetRate: 0.6, malformedRate: 0.6 })).toMatchObject({
      status: 400,
      body: { error: "the transport fault rates must add up to at most 1" },
    });
    expect((await setFaults({ bogus: true })).status).toBe(400);
  });

  it("answers a seeded share of requests with -32603, reproducibly", async () => {
    const draw = async () => {
      await setFaults({ errorRate: 0.5, seed: 7 });
      const outcomes: boolean[] = [];
      for (let i = 0; i < 40; i++) {
        outcomes.push(
          await h.server.getHealth().then(
            () => true,
            (e: { code?: number }) => {
              expect(e.code).toBe(-32603);
              return false;
            },
          ),
        );
      }
      await setFaults({ errorRate: 0, seed: 1 });
      return outcomes;
    };
    const first = await draw();
    const failures = first.filter((ok) => !ok).length;
    expect(failures).toBeGreaterThan(5);
    expect(failures).toBeLessThan(35);
    expect(await draw()).toEqual(first);
    expect((await h.server.getHealth()).status).toBe("healthy");
  });

  it("sends what providers' edges send: 429 with Retry-After, 503, resets, hangs, cut JSON", async () => {
    const post = () =>
      fetch(h.devnet.rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getHealth" }),
        signal: AbortSignal.timeout(2000),
      });
    await setFaults({ rateLimitedRate: 1, retryAfterSeconds: 3 });
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    await limited.body?.cancel();
    await setFaults({ rateLimitedRate: 0, unavailableRate: 1 });
    const unavailable = await post();
    expect(unavailable.status).toBe(503);
    await unavailable.body?.cancel();
    await setFaults({ unavailableRate: 0, resetRate: 1 });
    await expect(post()).rejects.toThrow(TypeError);
    await setFaults({ resetRate: 0, hangRate: 1, hangMs: 5000 });
    await expect(post()).rejects.toMatchObject({ name: "TimeoutError" });
    await setFaults({ hangRate: 0, malformedRate: 1 });
    const cut = await post();
    expect(cut.status).toBe(200);
    await expect(cut.json()).rejects.toThrow(SyntaxError);
    await setFaults({ malformedRate: 0, hangMs: 20_000, retryAfterSeconds: 1 });
    expect((await h.server.getHealth()).status).toBe("healthy");
  });

  it("delays answers by the configured latency", async () => {
    await setFaults({ latencyMs: 120 });
    const started = performance.now();
    await h.server.getHealth();
    const elapsed = performance.now() - started;
    await setFaults({ latencyMs: 0 });
    // A lower bound only: the server sleeps at least this long before answering.
    expect(elapsed).toBeGreaterThanOrEqual(115);
  });

  it("moves oldestLedger up with retention and refuses starts before it with the real error shape", async () => {
    for (let i = 0; i < RETENTION + 10; i++) h.devnet.closeLedger();
    const latest = h.devnet.chain.latest.sequence;
    const health = await h.server.getHealth();
    expect(health.oldestLedger).toBe(latest - RETENTION + 1);
    expect(health.ledgerRetentionWindow).toBe(RETENTION);
    await expect(h.server.getEvents({ startLedger: 1, filters: [] })).rejects.toEqual({
      code: -32600,
      message: `startLedger must be within the ledger range: ${latest - RETENTION + 1} - ${latest}`,
    });
    await setFaults({ retentionLedgers: 5 });
    expect((await h.server.getHealth()).oldestLedger).toBe(latest - 4);
    await expect(h.server.getEvents({ startLedger: latest - 5, filters: [] })).rejects.toMatchObject({
      code: -32600,
      message: `startLedger must be within the ledger range: ${latest - 4} - ${latest}`,
    });
    await setFaults({ retentionLedgers: null });
    expect((await h.server.getHealth()).oldestLedger).toBe(latest - RETENTION + 1);
  });

  it("freezes the head: no ledger closes and pending transactions wait until it thaws", async () => {
    const payer = Keypair.random();
    h.devnet.fund(payer.publicKey());
    await setFaults({ freezeHead: true });
    const head = (await h.server.getLatestLedger()).sequence;
    const account = await h.server.getAccount(payer.publicKey());
    const tx = new TransactionBuilder(account, { fee: "100", networkPassphrase: h.devnet.networkPassphrase })
      .addOperation(
        Operation.payment({
          destination: h.devnet.chain.root.publicKey(),
          asset: Asset.native(),
          amount: "1",
        }),
      )
      .setTimeout(0)
      .build();
    tx.sign(payer);
    const sent = await h.server.sendTransaction(tx);
    expect(sent.status).toBe("PENDING");
    h.devnet.closeLedger();
    h.devnet.closeLedger();
    expect((await h.server.getLatestLedger()).sequence).toBe(head);
    expect((await h.server.getTransaction(sent.hash)).status).toBe("NOT_FOUND");
    await setFaults({ freezeHead: false });
    h.devnet.closeLedger();
    expect((await h.server.getLatestLedger()).sequence).toBe(head + 1);
    expect((await h.server.getTransaction(sent.hash)).status).toBe("SUCCESS");
  });

  it("truncates getEvents pages with a cursor that still reaches every event", async () => {
    const contractId = StrKey.encodeContract(Buffer.alloc(32, 9));
    const start = h.devnet.chain.latest.sequence + 1;
    h.devnet.chain.appendSyntheticLedger(
      Array.from({ length: 10 }, (_, i) => ({
        contractId,
        topics: [xdr.ScVal.scvSymbol("t")],
        value: xdr.ScVal.scvU32(i),
      })),
    );
    h.devnet.closeLedger();
    await setFaults({ truncateEventsTo: 3 });
    const values: number[] = [];
    let page = await h.server.getEvents({
      startLedger: start,
      filters: [{ contractIds: [contractId] }],
      limit: 100,
    });
    expect(page.events).toHaveLength(3);
    for (let i = 0; i < 10 && page.events.length > 0; i++) {
      values.push(...page.events.map((e) => scValToNative(e.value) as number));
      page = await h.server.getEvents({
        cursor: page.cursor,
        filters: [{ contractIds: [contractId] }],
        limit: 100,
      });
    }
    await setFaults({ truncateEventsTo: null });
    expect(values).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

itConformsToOpenRpc(
  () => h,
  ["getHealth", "getEvents", "getLatestLedger", "sendTransaction", "getTransaction"],
);
