// The feature switches `namereg dev` honours: the demo's marketplace and billing on by default, off when their
// switch says false (in any of the configuration's spellings), and a bad value left for the configuration to refuse.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config/index.ts";
import { devFeatures } from "./dev-features.ts";

const devnet = { chain: { latest: { sequence: 42 } } } as Parameters<typeof devFeatures>[1];

describe("devFeatures", () => {
  it("turns the demo's marketplace and billing on when nothing is said", () => {
    const { market, billing, env } = devFeatures({}, devnet);
    expect({ market, billing }).toEqual({ market: true, billing: true });
    expect(env).toMatchObject({
      MARKET_ENABLED: "true",
      MARKET_FEE_BPS: "250",
      ESCROW_START_LEDGER: "42",
      BILLING_ENABLED: "true",
      BILLING_PRICE_XLM: "10",
      BILLING_START_LEDGER: "42",
    });
  });

  it("leaves each off when its switch says false, in any spelling the configuration takes", () => {
    for (const off of ["false", "0", "FALSE", " False "]) {
      const market = devFeatures({ MARKET_ENABLED: off }, devnet);
      expect([market.market, market.billing]).toEqual([false, true]);
      expect(market.env.MARKET_ENABLED).toBeUndefined();
      expect(market.env.ESCROW_ACCOUNT).toBeUndefined();
      const billing = devFeatures({ BILLING_ENABLED: off }, devnet);
      expect([billing.market, billing.billing]).toEqual([true, false]);
      expect(billing.env.BILLING_ACCOUNT).toBeUndefined();
    }
  });

  it("keeps the operator's tunables where they are set", () => {
    const { env } = devFeatures(
      { MARKET_FEE_BPS: "100", BILLING_PRICE_XLM: "3", BILLING_POLL_MS: "50" },
      devnet,
    );
    expect(env).toMatchObject({ MARKET_FEE_BPS: "100", BILLING_PRICE_XLM: "3", BILLING_POLL_MS: "50" });
  });

  it("passes a value that is not a boolean on, for the configuration to refuse as start does", () => {
    const raw = { MARKET_ENABLED: "maybe" };
    const features = devFeatures(raw, devnet);
    expect(features.market).toBe(false);
    expect(() => loadConfig({ ...raw, ...features.env }, { role: "dev" })).toThrow(/MARKET_ENABLED/);
  });
});
