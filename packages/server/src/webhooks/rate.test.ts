import { describe, expect, it } from "vitest";
import { NamespaceRate } from "./rate.ts";

describe("the per-namespace delivery rate", () => {
  it("allows WEBHOOK_RATE_PER_MINUTE attempts at once, then refills at that rate, per namespace", () => {
    const rate = new NamespaceRate(6);
    const taken = (namespace: string, at: number, n: number) =>
      Array.from({ length: n }, () => rate.take(namespace, at)).filter(Boolean).length;
    expect(taken("acme", 0, 10)).toBe(6);
    // Another namespace has its own bucket.
    expect(taken("beta", 0, 10)).toBe(6);
    // 6 a minute: one more every 10 s, never more than 6 saved up.
    expect(taken("acme", 9_999, 1)).toBe(0);
    expect(taken("acme", 10_000, 2)).toBe(1);
    expect(taken("acme", 3_600_000, 10)).toBe(6);
  });
});
