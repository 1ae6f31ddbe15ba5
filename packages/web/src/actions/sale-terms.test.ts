import { describe, expect, it } from "vitest";
import { percent, saleFigures, xlmToStroops, xlmWords } from "./sale-terms.ts";

const TERMS = { feeBps: 250, bondBps: 1000, bondMinXlm: 10 };

describe("a listing's figures before it is created", () => {
  it("reads XLM as the listing route takes it", () => {
    expect(xlmToStroops("20")).toBe(200_000_000n);
    expect(xlmToStroops(" 12.5 ")).toBe(125_000_000n);
    expect(xlmToStroops("0.0000001")).toBe(1n);
    for (const bad of ["", "1.", ".5", "1.12345678", "-1", "1e3", "one"])
      expect(xlmToStroops(bad)).toBeNull();
  });

  it("takes the fee by floor, and the bond as the larger of its share and its minimum", () => {
    expect(saleFigures("20", TERMS)).toEqual({
      priceXlm: "20",
      feeXlm: "0.5",
      sellerGetsXlm: "19.5",
      bondXlm: "10",
    });
    expect(saleFigures("500", TERMS)).toMatchObject({
      feeXlm: "12.5",
      sellerGetsXlm: "487.5",
      bondXlm: "50",
    });
    // 0.0000039 × 2.5 % is 0.0000000975 XLM: floor to nothing.
    expect(saleFigures("0.0000039", TERMS)).toMatchObject({ feeXlm: "0", sellerGetsXlm: "0.0000039" });
  });

  it("has no figures for a price the route refuses", () => {
    expect(saleFigures("0", TERMS)).toBeNull();
    expect(saleFigures("abc", TERMS)).toBeNull();
  });

  it("writes basis points as a percentage", () => {
    expect(percent(250)).toBe("2.5 %");
    expect(percent(0)).toBe("0 %");
  });
});

describe("XLM in words", () => {
  it("drops the API's trailing zeros", () => {
    expect(xlmWords("20.0000000")).toBe("20 XLM");
    expect(xlmWords("0.5000000")).toBe("0.5 XLM");
  });
});
