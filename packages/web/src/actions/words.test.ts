// The review's words for the network, the fee and the validity of a transaction.
import { describe, expect, it } from "vitest";
import { feeInXlm, networkInWords, validUntil } from "./words.ts";

describe("the review's words", () => {
  it("names the networks a person knows, and quotes any other passphrase as a local network", () => {
    expect(networkInWords("Public Global Stellar Network ; September 2015")).toBe(
      "the Stellar public network (real money)",
    );
    expect(networkInWords("Test SDF Network ; September 2015")).toBe("the Stellar testnet");
    expect(networkInWords("Standalone Network ; February 2017")).toBe(
      "a local network (“Standalone Network ; February 2017”)",
    );
  });

  it("gives the fee in XLM, every stroop kept", () => {
    expect(feeInXlm(100n)).toBe("0.00001 XLM");
    expect(feeInXlm(1_234_567n)).toBe("0.1234567 XLM");
    expect(feeInXlm(10_000_000n)).toBe("1 XLM");
  });

  it("gives the upper time bound as a UTC time", () => {
    expect(validUntil("1798761600")).toBe("2027-01-01T00:00:00Z");
    expect(validUntil(1798761601n)).toBe("2027-01-01T00:00:01Z");
  });
});
