import { describe, expect, it } from "vitest";
import { applyBps, splitBps, stroopsToXlm, xlmToStroops } from "./amounts.ts";

describe("XLM amounts", () => {
  it("formats base units with exactly 7 decimals", () => {
    expect(stroopsToXlm(0n)).toBe("0.0000000");
    expect(stroopsToXlm(1n)).toBe("0.0000001");
    expect(stroopsToXlm(1_000_000_000n)).toBe("100.0000000");
    expect(stroopsToXlm(5_000_000_000n)).toBe("500.0000000");
    expect(stroopsToXlm(12_345_678n)).toBe("1.2345678");
    expect(stroopsToXlm(-5n)).toBe("-0.0000005");
    expect(stroopsToXlm(2n ** 100n)).toBe("126765060022822940149670.3205376");
  });

  it("parses decimal strings exactly and refuses to round", () => {
    expect(xlmToStroops("100")).toBe(1_000_000_000n);
    expect(xlmToStroops("1.5")).toBe(15_000_000n);
    expect(xlmToStroops("0.0000001")).toBe(1n);
    expect(xlmToStroops("-2.25")).toBe(-22_500_000n);
    expect(() => xlmToStroops("0.00000001")).toThrow(RangeError);
    expect(() => xlmToStroops("1e3")).toThrow(RangeError);
    expect(() => xlmToStroops("")).toThrow(RangeError);
    expect(() => xlmToStroops(" 1")).toThrow(RangeError);
    for (const s of ["0.0000000", "1.2345678", "922337203685.4775807"])
      expect(stroopsToXlm(xlmToStroops(s))).toBe(s);
  });

  it("applies basis points with floor rounding", () => {
    expect(applyBps(1_000_000_000n, 8000)).toBe(800_000_000n);
    expect(applyBps(1_000_000_000n, 10_000)).toBe(1_000_000_000n);
    expect(applyBps(1_000_000_000n, 0)).toBe(0n);
    expect(applyBps(7n, 8000)).toBe(5n); // 5.6 floors to 5
    expect(applyBps(3n, 250)).toBe(0n);
    expect(splitBps(7n, 8000)).toEqual({ share: 5n, rest: 2n });
    expect(() => applyBps(10n, 10_001)).toThrow(RangeError);
    expect(() => applyBps(10n, 1.5)).toThrow(RangeError);
    expect(() => applyBps(-10n, 100)).toThrow(RangeError);
  });
});
