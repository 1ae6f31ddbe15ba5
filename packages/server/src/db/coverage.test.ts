import { describe, expect, it } from "vitest";
import { coverageOf, type IndexerSnapshot, isFresh } from "./coverage.ts";

const t0 = new Date("2026-11-21T12:00:00Z");
const after = (s: number) => new Date(t0.getTime() + s * 1000);

const healthy: IndexerSnapshot = {
  headLedger: 100,
  headObservedAt: t0,
  processedLedger: 100,
  processedAt: t0,
  gaps: [],
  deadLetters: 0,
};

describe("coverage", () => {
  it("is complete while fresh and without gaps", () => {
    expect(coverageOf(healthy, after(60))).toEqual({
      source: "indexed",
      complete: true,
      processedLedger: 100,
      headLedger: 100,
      processedAt: t0.toISOString(),
      headObservedAt: t0.toISOString(),
      gaps: [],
    });
  });

  it("is never complete over a gap", () => {
    const gap = { contractId: "C", fromLedger: 2, toLedger: 9, reason: "outside the RPC's retention window" };
    expect(coverageOf({ ...healthy, gaps: [gap] }, after(1))).toMatchObject({ complete: false, gaps: [gap] });
  });

  it("turns incomplete 120 s after the last progress (stopped indexer)", () => {
    const snap = { ...healthy, headObservedAt: after(300) };
    expect(coverageOf(snap, after(120)).complete).toBe(true);
    expect(coverageOf(snap, after(121)).complete).toBe(false);
  });

  it("turns incomplete 120 s after the head last moved (stopped head)", () => {
    const snap = { ...healthy, processedAt: after(300) };
    expect(coverageOf(snap, after(121)).complete).toBe(false);
  });

  it("is incomplete before anything was processed", () => {
    expect(coverageOf({ ...healthy, processedLedger: null, processedAt: null }, t0).complete).toBe(false);
    expect(isFresh(null, t0)).toBe(false);
  });
});
