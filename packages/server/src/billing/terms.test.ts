import { describe, expect, it } from "vitest";
import { billingEnforced, extendPaidUntil, judgePayment, PERIOD_MS, subscriptionState } from "./terms.ts";

const PRICE = 100_000_000n; // 10 XLM
const NODE = "ab".repeat(32);
const pay = (over: Partial<Parameters<typeof judgePayment>[0]> = {}) => ({
  asset: "native",
  amount: PRICE,
  memoType: "hash" as const,
  memo: NODE,
  ...over,
});

describe("judgePayment", () => {
  it("applies whole periods of a native payment with a node memo", () => {
    expect(judgePayment(pay(), PRICE)).toEqual({ kind: "apply", node: NODE, periods: 1 });
    expect(judgePayment(pay({ amount: PRICE * 12n }), PRICE)).toEqual({
      kind: "apply",
      node: NODE,
      periods: 12,
    });
  });

  it.each([
    [{ memoType: "none" as const, memo: null }, "no_memo"],
    [{ memoType: "text" as const, memo: "acme" }, "memo_not_hash"],
    [{ memoType: "id" as const, memo: "7" }, "memo_not_hash"],
    [{ memoType: "return" as const, memo: NODE }, "memo_not_hash"],
    [{ asset: "USDC:GA5ZSEJYB37JRC5AVCIA5MOP4RHTM335X2KGX3IHOJAPP5RE34K4KZVN" }, "not_native"],
    [{ amount: PRICE - 1n }, "below_price"],
    [{ amount: 0n }, "below_price"],
    [{ amount: PRICE * 2n + 1n }, "remainder"],
  ])("quarantines %o as %s", (over, reason) => {
    expect(judgePayment(pay(over), PRICE)).toEqual({ kind: "quarantine", reason });
  });
});

describe("extendPaidUntil", () => {
  const at = new Date("2026-11-01T00:00:00Z");
  it("starts at the payment when never paid or lapsed", () => {
    expect(extendPaidUntil(null, at, 1).getTime()).toBe(at.getTime() + PERIOD_MS);
    const lapsed = new Date("2026-10-01T00:00:00Z");
    expect(extendPaidUntil(lapsed, at, 2).getTime()).toBe(at.getTime() + 2 * PERIOD_MS);
  });
  it("extends from the paid-until when renewed before it", () => {
    const paid = new Date("2026-11-20T00:00:00Z");
    expect(extendPaidUntil(paid, at, 1).toISOString()).toBe("2026-12-20T00:00:00.000Z");
  });
});

describe("subscriptionState", () => {
  const now = new Date("2026-11-01T00:00:00Z");
  it("is active only while paid through now", () => {
    expect(subscriptionState({ status: "active", activeUntil: new Date(now.getTime() + 1) }, now)).toBe(
      "active",
    );
    expect(subscriptionState({ status: "active", activeUntil: now }, now)).toBe("lapsed");
    expect(subscriptionState({ status: "active", activeUntil: null }, now)).toBe("lapsed");
    expect(subscriptionState(undefined, now)).toBe("lapsed");
  });
  it("is suspended whatever was paid", () => {
    expect(
      subscriptionState({ status: "suspended", activeUntil: new Date(now.getTime() + PERIOD_MS) }, now),
    ).toBe("suspended");
  });
});

describe("billingEnforced", () => {
  const now = new Date("2026-11-01T00:00:00Z");
  it("follows enabled and the grace date", () => {
    expect(billingEnforced({ enabled: false, graceUntil: null }, now)).toBe(false);
    expect(billingEnforced({ enabled: true, graceUntil: null }, now)).toBe(true);
    expect(billingEnforced({ enabled: true, graceUntil: "2026-11-01T00:00:01Z" }, now)).toBe(false);
    expect(billingEnforced({ enabled: true, graceUntil: "2026-11-01T00:00:00Z" }, now)).toBe(true);
  });
});
