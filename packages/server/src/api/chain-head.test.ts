import pino from "pino";
import { describe, expect, it } from "vitest";
import { closeTimeIso, coalescedHead, observeLiveHead } from "./chain-head.ts";

const log = pino({ level: "silent" });
const now = () => new Date("2026-01-01T00:01:00.000Z");

describe("observeLiveHead", () => {
  it("answers the head with its close time and the moment it was observed", async () => {
    const chain = { head: async () => ({ sequence: 42, closeTime: "1767225655" }) };
    expect(await observeLiveHead(chain, now, log)).toEqual({
      ledger: 42,
      closedAt: "2026-01-01T00:00:55.000Z",
      observedAt: now(),
    });
  });

  it("gives null without an RPC, when it fails, or when it answers nonsense", async () => {
    expect(await observeLiveHead(undefined, now, log)).toBeNull();
    const failing = { head: () => Promise.reject(new Error("HTTP 502")) };
    expect(await observeLiveHead(failing, now, log)).toBeNull();
    const nonsense = { head: async () => ({ sequence: -1, closeTime: "0" }) };
    expect(await observeLiveHead(nonsense, now, log)).toBeNull();
  });

  it("gives up on an RPC that does not answer in time", async () => {
    const silent = { head: () => new Promise<never>(() => {}) };
    expect(await observeLiveHead(silent, now, log, 5)).toBeNull();
  });
});

describe("closeTimeIso", () => {
  it("reads Unix seconds and RFC 3339, and nothing else", () => {
    expect(closeTimeIso("0")).toBe("1970-01-01T00:00:00.000Z");
    expect(closeTimeIso("1767225655")).toBe("2026-01-01T00:00:55.000Z");
    expect(closeTimeIso("2026-01-01T01:00:55+01:00")).toBe("2026-01-01T00:00:55.000Z");
    expect(closeTimeIso("")).toBeNull();
    expect(closeTimeIso("yesterday")).toBeNull();
  });
});

describe("coalescedHead", () => {
  it("shares one call among concurrent requests, reuses it briefly, and never reuses a failure", async () => {
    let calls = 0;
    let fail = false;
    let t = 0;
    const source = {
      head: async () => {
        calls++;
        if (fail) throw new Error("rpc down");
        return { sequence: 100 + calls, closeTime: "1800000000" };
      },
    };
    const shared = coalescedHead(source, 1000, () => t);
    const [a, b, c] = await Promise.all([shared.head(), shared.head(), shared.head()]);
    expect([a.sequence, b.sequence, c.sequence, calls]).toEqual([101, 101, 101, 1]);
    t = 999;
    expect((await shared.head()).sequence).toBe(101);
    t = 1000;
    expect((await shared.head()).sequence).toBe(102);
    fail = true;
    t = 5000;
    await expect(shared.head()).rejects.toThrow("rpc down");
    fail = false;
    expect((await shared.head()).sequence).toBe(104);
    expect(calls).toBe(4);
  });
});
