import { describe, expect, it } from "vitest";
import { bondFor, newHashMemo } from "./terms.ts";

describe("bondFor", () => {
  const rule = { bondBps: 1000, bondMinXlm: 10 };
  it("is 10% of the price above the floor", () => {
    expect(bondFor(500_0000000n, rule)).toBe(50_0000000n);
  });
  it("is never below the floor", () => {
    expect(bondFor(20_0000000n, rule)).toBe(10_0000000n);
  });
});

describe("newHashMemo", () => {
  it("is 64 hex characters and not repeated", () => {
    const a = newHashMemo();
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(newHashMemo()).not.toBe(a);
  });
});
