import { describe, expect, it } from "vitest";
import { dateTime } from "../format.ts";
import { cancelConsequences, saleFigures, xlmToStroops, xlmWords } from "./sale-terms.ts";

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
});

describe("XLM in words", () => {
  it("drops the API's trailing zeros", () => {
    expect(xlmWords("20.0000000")).toBe("20 XLM");
    expect(xlmWords("0.5000000")).toBe("0.5 XLM");
  });
});

describe("what cancelling a listing does, in words", () => {
  const A = `GA${"A".repeat(54)}`;
  const B = `GB${"B".repeat(54)}`;
  const active = { state: "active" as const, bond: { amountXlm: "10.0000000" }, intents: [], proposal: null };

  it("closes a listing waiting for its bond with nothing to return", () => {
    expect(cancelConsequences({ ...active, state: "pending_bond" })).toEqual([
      "The listing closes. The escrow has not seen its bond; a bond payment still on its way is sent back to you.",
    ]);
  });

  it("returns the bond without a funded deposit, and warns of a live proposal nobody paid for", () => {
    expect(cancelConsequences(active)).toEqual([
      "The listing closes to new buyers.",
      "No buyer's deposit is in the escrow: your bond of 10 XLM comes back to you once the escrow settles the cancel.",
    ]);
    const proposed = {
      ...active,
      intents: [{ buyer: A, funded: false }],
      proposal: { to: A, expiresAt: "2026-11-27T00:00:00.000Z" },
    };
    expect(cancelConsequences(proposed)[2]).toBe(
      `Your offer to ${A} stays live on the registry until ${dateTime("2026-11-27T00:00:00.000Z")}: withdraw the offer first, or they can take the namespace without paying.`,
    );
  });

  it("names the funded buyer who gets the deposit back and the bond, or may still accept", () => {
    const funded = {
      ...active,
      intents: [
        { buyer: A, funded: true },
        { buyer: B, funded: false },
      ],
    };
    expect(cancelConsequences(funded)).toEqual([
      "The listing closes to new buyers.",
      `${A} has paid a deposit: it is refunded to them, and your bond of 10 XLM is paid to them.`,
    ]);
    const live = { ...funded, proposal: { to: A, expiresAt: "2026-11-27T00:00:00.000Z" } };
    expect(cancelConsequences(live)[1]).toBe(
      `${A} has paid a deposit and your offer to them is live: if they accept it, the sale stands and you are paid. If you withdraw the offer or let it lapse, their deposit is refunded and your bond of 10 XLM is paid to them.`,
    );
  });
});
