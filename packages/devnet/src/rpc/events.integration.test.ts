// getEvents paging through the unchanged SDK: empty pages, the 10,000-ledger scan window, full-page cursors,
// request validation, JSON format.
import { StrKey, scValToNative, xdr } from "@stellar/stellar-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Harness, itConformsToOpenRpc, startHarness } from "../../test/fixtures/harness.ts";

const CONTRACT = StrKey.encodeContract(Buffer.alloc(32, 1));
const OTHER = StrKey.encodeContract(Buffer.alloc(32, 2));
const sym = (s: string) => xdr.ScVal.scvSymbol(s);
const FAR_LEDGER = 25_000;

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ retentionLedgers: 100_000, genesisCloseTime: 1_700_000_000 });
  const chain = h.devnet.chain;
  chain.appendSyntheticLedger(
    [
      { contractId: CONTRACT, topics: [sym("a"), sym("x")], value: xdr.ScVal.scvU32(1) },
      { contractId: OTHER, topics: [sym("b")], value: xdr.ScVal.scvU32(2), tx: "t" },
      { contractId: CONTRACT, topics: [sym("a")], value: xdr.ScVal.scvU32(3), tx: "t" },
    ],
    { closeTime: 1_700_000_000 },
  );
  while (chain.latest.sequence < FAR_LEDGER - 1) chain.closeLedger({ closeTime: 1_700_000_100 });
  chain.appendSyntheticLedger(
    [
      {
        contractId: CONTRACT,
        topics: [sym("a"), sym("y")].map((t) => t.toXDR("base64")),
        value: xdr.ScVal.scvU32(4).toXDR("base64"),
      },
      { contractId: CONTRACT, topics: [sym("c")], value: xdr.ScVal.scvU32(5) },
    ],
    { closeTime: 1_700_000_200 },
  );
  chain.closeLedger({ closeTime: 1_700_000_300 });
});
afterAll(async () => h?.close());

describe("getEvents paging", () => {
  it("gives events ids from the TOID of ledger, 1-based transaction and operation", async () => {
    const page = await h.server.getEvents({ startLedger: 2, filters: [], limit: 3 });
    expect(page.events.map((e) => [e.id, e.transactionIndex, e.operationIndex])).toEqual([
      ["0000000008589938688-0000000000", 1, 0],
      ["0000000008589942784-0000000000", 2, 0],
      ["0000000008589942784-0000000001", 2, 0],
    ]);
    expect(page.events[0]?.ledgerClosedAt).toBe("2023-11-14T22:13:20Z");
    expect(page.events[1]?.txHash).toBe(page.events[2]?.txHash);
    expect(page.cursor).toBe(page.events[2]?.id);
  });

  it("advances through empty pages window by window until the head", async () => {
    const seen: number[] = [];
    const cursors: string[] = [];
    let page = await h.server.getEvents({
      startLedger: 2,
      filters: [{ contractIds: [CONTRACT] }],
      limit: 100,
    });
    for (let i = 0; i < 10; i++) {
      seen.push(...page.events.map((e) => scValToNative(e.value) as number));
      cursors.push(page.cursor);
      if (BigInt(page.cursor.split("-")[0] ?? 0) >> 32n >= BigInt(page.latestLedger)) break;
      page = await h.server.getEvents({
        cursor: page.cursor,
        filters: [{ contractIds: [CONTRACT] }],
        limit: 100,
      });
    }
    expect(seen).toEqual([1, 3, 4, 5]);
    expect(cursors.slice(0, 2)).toEqual(["0000042958262894591-4294967295", "0000085903640887295-4294967295"]);
    // Window ends: 2+10000 (exclusive) -> cursor of 10001; then 10001+10000 -> 20000; then the head.
    expect(BigInt(cursors[0]?.split("-")[0] ?? 0) >> 32n).toBe(10_001n);
    expect(BigInt(cursors[1]?.split("-")[0] ?? 0) >> 32n).toBe(20_000n);
    expect(BigInt(cursors[2]?.split("-")[0] ?? 0) >> 32n).toBe(BigInt(h.devnet.chain.latest.sequence));
  });

  it("honours endLedger and topic wildcards", async () => {
    const far = xdr.ScVal.scvSymbol("a").toXDR("base64");
    const exact = await h.server.getEvents({ startLedger: 2, endLedger: 3, filters: [{ topics: [[far]] }] });
    expect(exact.events.map((e) => scValToNative(e.value))).toEqual([3]);
    expect(BigInt(exact.cursor.split("-")[0] ?? 0) >> 32n).toBe(2n);
    const rest = await h.server.getEvents({
      startLedger: FAR_LEDGER - 5,
      filters: [{ topics: [[far, "**"]] }],
    });
    expect(rest.events.map((e) => scValToNative(e.value))).toEqual([4]);
    const one = await h.server.getEvents({ startLedger: 2, filters: [{ topics: [[far, "*"]] }] });
    expect(one.events.map((e) => scValToNative(e.value))).toEqual([1]);
  });

  it("validates requests with the server's codes and messages", async () => {
    const cursor = "0000000008589938688-0000000000";
    expect((await h.call("getEvents", { startLedger: 2, pagination: { cursor } })).error).toEqual({
      code: -32602,
      message: "ledger ranges and cursor cannot both be set",
    });
    expect((await h.call("getEvents", { startLedger: 2, pagination: { limit: 10_001 } })).error).toEqual({
      code: -32602,
      message: "limit must not exceed 10000",
    });
    expect((await h.call("getEvents", { startLedger: 2, filters: Array(6).fill({}) })).error?.message).toBe(
      "maximum 5 filters per request",
    );
    expect(
      (await h.call("getEvents", { startLedger: 2, filters: [{ contractIds: ["GABC"] }] })).error?.message,
    ).toBe("filter 1 invalid: contract ID 1 invalid");
    const latest = h.devnet.chain.latest.sequence;
    expect((await h.call("getEvents", { startLedger: latest + 1 })).error).toEqual({
      code: -32600,
      message: `startLedger must be within the ledger range: 1 - ${latest}`,
    });
    expect((await h.call("getEvents", {})).error?.code).toBe(-32602);
  });

  it("answers xdrFormat json with topicJson and valueJson", async () => {
    const res = await h.call("getEvents", {
      startLedger: 2,
      endLedger: 3,
      xdrFormat: "json",
      pagination: { limit: 1 },
    });
    const [event] = (res.result as { events: Record<string, unknown>[] }).events;
    expect(event?.topicJson).toEqual([{ symbol: "a" }, { symbol: "x" }]);
    expect(event?.valueJson).toEqual({ u32: 1 });
    expect(event?.topic).toBeUndefined();
  });
});

itConformsToOpenRpc(() => h, ["getEvents"]);
